import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { once } from 'node:events';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A redis-server started for tests, on 127.0.0.1. */
export interface TestRedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Stops the server and waits for it to exit. */
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 10_000;
const PORT_ATTEMPTS = 3;

/**
 * Starts a throwaway `redis-server` (no persistence, its own free port) and resolves once it
 * answers PING. Fails, never skips, when redis-server is not installed: CI installs it.
 *
 * @example
 * ```ts
 * let server: TestRedisServer;
 * beforeAll(async () => { server = await startRedisServer(); });
 * afterAll(() => server.stop());
 * ```
 */
export async function startRedisServer(): Promise<TestRedisServer> {
  const binary = findRedisServer();
  let lastError: unknown;
  // Another process may take the free port between our probe and redis-server's bind.
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt += 1) {
    try {
      return await startOnPort(binary, await freePort());
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

function findRedisServer(): string {
  const candidates = [...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'redis-server')), '/usr/bin/redis-server'];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; try the next place.
    }
  }
  throw new Error(
    'Failed to start redis-server for the Redis tests: it is not installed (looked in PATH and /usr/bin). ' +
      'Install it with `apt-get install -y redis-server` (CI does this in .ci/run).',
  );
}

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  if (address === null || typeof address === 'string') throw new Error('Failed to find a free port: the probe server has no TCP address.');
  return address.port;
}

async function startOnPort(binary: string, port: number): Promise<TestRedisServer> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', tmpdir()];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keepOutput = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout?.on('data', keepOutput);
  child.stderr?.on('data', keepOutput);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });

  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (!(await answersPing(port))) {
    if (exited || Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`Failed to start redis-server on port ${port}: ${exited ? 'it exited' : 'no PING answer in 10 s'}. Its output:\n${output}`);
    }
    await sleep(50);
  }
  return { port, url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const finish = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = once(child, 'exit');
  child.kill('SIGTERM');
  const stopped = await Promise.race([exit.then(() => true), sleep(5_000).then(() => false)]);
  if (!stopped) {
    child.kill('SIGKILL');
    await exit;
  }
}
