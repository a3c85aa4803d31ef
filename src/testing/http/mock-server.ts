import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seedDemoSchool } from '../seed/demo-school.js';
import { createSimulator, type Simulator } from '../simulator.js';

/** Options of {@link startMockServer}. */
export interface MockServerOptions {
  /**
   * Port to listen on; 0 picks a free one.
   * @default 0
   */
  port?: number | undefined;
  /**
   * Interface to listen on.
   * @default '127.0.0.1'
   */
  host?: string | undefined;
  /**
   * The simulator to serve; `seed` is ignored when it is given.
   * @default a new simulator with real time and the default limits
   */
  simulator?: Simulator | undefined;
  /**
   * What a new simulator starts with: the demo school ({@link seedDemoSchool}) or nothing.
   * @default 'demo'
   */
  seed?: 'demo' | 'empty' | undefined;
}

/** A running loopback server of the admin API. */
export interface MockServer {
  /** The `baseUrl` for `AdminClient`, e.g. `http://127.0.0.1:54321`. */
  url: string;
  /** The loopback port it listens on. */
  port: number;
  /** The simulator answering its requests (seed it, inspect its model and stats). */
  simulator: Simulator;
  /** Stops listening and ends every open connection. */
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function serve(simulator: Simulator) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    void (async () => {
      try {
        const answer = await simulator.handle({
          method: request.method ?? 'GET',
          path: request.url ?? '/',
          headers: request.headers,
          body: await readBody(request),
        });
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
      } catch {
        // The client went away while the body was read; nothing is left to answer.
        response.destroy();
      }
    })();
  };
}

/**
 * Serves a simulator over real HTTP (node:http, keep-alive) on loopback.
 *
 * @example
 * ```ts
 * const server = await startMockServer({ port: 0, seed: 'demo' });
 * const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url });
 * // ...
 * await server.close();
 * ```
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const simulator = options.simulator ?? createSimulator();
  if (!options.simulator && (options.seed ?? 'demo') === 'demo') seedDemoSchool(simulator);
  const host = options.host ?? '127.0.0.1';
  const server = createServer({ keepAlive: true }, serve(simulator));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    simulator,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
