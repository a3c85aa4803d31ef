import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail, startMockServer, type MockServer } from '../../src/testing/index.js';
import { runtimeBinary } from './support/runtimes.js';

const fixtures = fileURLToPath(new URL('fixtures', import.meta.url));
const consumerDir = inject('consumerDir');
const STARTUP_TIMEOUT_MS = 20_000;

let mock: MockServer;
let workerd: ChildProcess | undefined;
let workerUrl: string;
let workerdOutput = '';
let bundleMeta: esbuild.Metafile;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('Failed to find a free port: no address.');
  return address.port;
}

/** workerd's config: the bundled worker, text bindings, and outbound network to loopback only. */
function capnpConfig(port: number, bindings: Record<string, string>): string {
  const text = Object.entries(bindings)
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(', ');
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # The default outbound service allows public addresses only; the mock server is on loopback.
    (name = "loopback", network = (allow = ["local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.bundle.js") ],
  compatibilityDate = "2025-09-01",
  bindings = [ ${text} ],
  globalOutbound = "loopback",
);
`;
}

async function waitUntilServing(url: string): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (workerd?.exitCode !== null) throw new Error(`Failed to start workerd: it exited (${String(workerd?.exitCode)}).\n${workerdOutput}`);
    try {
      await fetch(url);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`Failed to start workerd: no answer on ${url} within ${STARTUP_TIMEOUT_MS} ms.\n${workerdOutput}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

beforeAll(async () => {
  const binary = runtimeBinary('workerd');
  mock = await startMockServer({ seed: 'demo' });
  copyFileSync(join(fixtures, 'worker.js'), join(consumerDir, 'worker.js'));
  // As wrangler bundles a worker: esbuild, ESM, conditions workerd/worker/browser, nothing external.
  const built = await esbuild.build({
    entryPoints: [join(consumerDir, 'worker.js')],
    outfile: join(consumerDir, 'worker.bundle.js'),
    absWorkingDir: consumerDir,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    metafile: true,
    logLevel: 'silent',
  });
  bundleMeta = built.metafile;
  const port = await freePort();
  workerUrl = `http://127.0.0.1:${port}`;
  const bindings = { API_KEY: DEMO_API_KEY, MOCK_URL: mock.url, COUPON_ID: DEMO_IDS.restrictedCouponId, MEMBER_EMAIL: demoMemberEmail(11) };
  writeFileSync(join(consumerDir, 'config.capnp'), capnpConfig(port, bindings));
  workerd = spawn(binary, ['serve', 'config.capnp', '--verbose'], { cwd: consumerDir, stdio: ['ignore', 'pipe', 'pipe'] });
  workerd.stdout?.on('data', (chunk: Buffer) => (workerdOutput += chunk.toString()));
  workerd.stderr?.on('data', (chunk: Buffer) => (workerdOutput += chunk.toString()));
  await waitUntilServing(workerUrl);
});

afterAll(async () => {
  if (workerd !== undefined && workerd.exitCode === null) {
    workerd.kill('SIGTERM');
    await once(workerd, 'exit');
  }
  await mock?.close();
});

describe("the packed SDK in Cloudflare's workerd (bundled with esbuild, no nodejs_compat)", () => {
  it('bundles the main entry for the worker with nothing left to import (no node: module)', () => {
    const [output] = Object.values(bundleMeta.outputs);
    expect(output?.imports).toEqual([]);
    expect(Object.keys(bundleMeta.inputs)).toContain('node_modules/school-admin-sdk/dist/internal/journal-unavailable.js');
  });

  it('grants a coupon against the mock server: the guard lets workerd through and fetch is called unbound', async () => {
    const answer = await fetch(`${workerUrl}/grant`);
    const text = await answer.text();
    expect(answer.status, `${text}\n${workerdOutput}`).toBe(200);
    expect(JSON.parse(text)).toEqual({
      userAgent: 'Cloudflare-Workers',
      first: { created: true, email: demoMemberEmail(11) },
      again: { created: false },
      typename: { __typename: 'Query' },
      journal: { isInvalidInputError: true, field: 'journal' },
    });
    // Two grants and one query reached the server; the journal refusal sent nothing.
    expect(mock.simulator.stats().requests).toMatchObject({ mutations: 2, queries: 1 });
  });
});
