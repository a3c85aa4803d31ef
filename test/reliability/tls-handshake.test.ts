import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { createServer as createTlsServer, type TlsOptions } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, bucketName, MemoryPermitStore, NetworkError } from '../../src/index.js';

/*
 * Issue 30, point 5. fetch writes a request only once its TLS handshake has succeeded, so a failed
 * handshake sent nothing: the failure is "never reached" (retried even for a mutation that is not
 * safe to repeat, its rate-limit slot given back at once), and the message points at the likely
 * cause (an https:// baseUrl for a plain-HTTP server). The servers are real loopback servers:
 * node:http for plain HTTP, node:tls with a self-signed certificate made for these tests.
 */

const fixture = (name: string): Buffer => readFileSync(new URL(`fixtures/tls/${name}`, import.meta.url));
const CERTIFICATE = { key: fixture('localhost-key.pem'), cert: fixture('localhost-cert.pem') };

interface LoopbackServer {
  port: number;
  /** Requests (plain HTTP) or TLS connections that completed a handshake and sent data. */
  reached: () => number;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

async function listen(server: Server, reached: () => number): Promise<LoopbackServer> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, reached };
}

/** A plain-HTTP server: every request it reads counts (it answers each one as a GraphQL server would). */
function plainHttpServer(): Promise<LoopbackServer> {
  let requests = 0;
  const server = createHttpServer((request, response) => {
    requests += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":null}');
  });
  // Node closes a socket that does not speak HTTP (a TLS hello) with a 400 of its own; the handler never runs.
  return listen(server, () => requests);
}

/** A TLS server with `options`; any byte of application data it receives counts. */
function tlsServer(options: TlsOptions): Promise<LoopbackServer> {
  let reached = 0;
  const server = createTlsServer({ ...CERTIFICATE, ...options }, (socket) => {
    socket.on('data', () => (reached += 1));
    socket.on('error', () => undefined);
  });
  server.on('tlsClientError', () => undefined);
  return listen(server, () => reached);
}

const LIMIT = 1;

/** OpenSSL 3.2 renamed the "sslv3 alert" reasons "ssl/tls alert" (Node 20 has 3.0; Node 22 and 24 have 3.5). */
const [opensslMajor = 0, opensslMinor = 0] = process.versions.openssl.split('.').map(Number);
const HANDSHAKE_FAILURE = opensslMajor > 3 || (opensslMajor === 3 && opensslMinor >= 2) ? 'ERR_SSL_SSL/TLS_ALERT_HANDSHAKE_FAILURE' : 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE';

function client(apiKey: string, port: number, store: MemoryPermitStore): AdminClient {
  return new AdminClient({
    apiKey,
    baseUrl: `https://127.0.0.1:${port}`,
    maxRetries: 2,
    retryBaseDelayMs: 1,
    maxRetryDelayMs: 5,
    limits: { mutations: { limit: LIMIT, windowMs: 60_000 }, store },
  });
}

/** Slots the store grants at once now in the key's mutation bucket. */
async function freeSlots(store: MemoryPermitStore, apiKey: string): Promise<number> {
  let granted = 0;
  while (granted <= LIMIT && (await store.tryAcquire({ bucket: bucketName(apiKey, 'mutations'), limit: LIMIT, windowMs: 60_000, leaseMs: 65_000 })).granted) granted += 1;
  return granted;
}

describe('"A failed handshake sent nothing: classify it as never reached (retry-safe, its slot given back) and hint at the scheme" (issue 30)', () => {
  it.each([
    ['an https:// baseUrl for a plain-HTTP server', 'ERR_SSL_WRONG_VERSION_NUMBER', plainHttpServer],
    ['a server that speaks only TLS 1.0', 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', () => tlsServer({ minVersion: 'TLSv1', maxVersion: 'TLSv1', ciphers: 'DEFAULT@SECLEVEL=0' })],
    ['a TLS 1.2 server that requires a client certificate', HANDSHAKE_FAILURE, () => tlsServer({ maxVersion: 'TLSv1.2', requestCert: true, rejectUnauthorized: true })],
    ['a self-signed server certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT', () => tlsServer({})],
  ])('%s: NetworkError %s, never reached; createCoupon (not safe to repeat) is retried and spends no slot', async (_, code, start) => {
    const server = await start();
    const apiKey = `sk_live_tls_${code.toLowerCase()}`;
    const store = new MemoryPermitStore();
    const admin = client(apiKey, server.port, store);
    const retries: string[] = [];
    admin.on('retry', (event) => retries.push(event.error));

    const error = await admin.createCoupon({ name: 'Spring', couponType: 'percentage', amount: 10 }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ mayHaveReachedServer: false, networkCode: code, origin: `https://127.0.0.1:${server.port}` });
    expect((error as Error).message).toContain(`(${code})`);
    expect((error as Error).message).toContain('The request never reached the server; the TLS handshake failed: if the server speaks plain HTTP, use an http:// baseUrl; else check its certificate.');
    // Three attempts of a mutation not safe to repeat, under a budget of one per minute: each slot was given back.
    expect(retries).toEqual(['NetworkError', 'NetworkError']);
    expect(await freeSlots(store, apiKey)).toBe(LIMIT);
    expect(server.reached()).toBe(0);
  });
});
