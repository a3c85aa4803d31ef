import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { answersPing, locateRedisServer, REDIS_REMEDY } from './redis-lookup.js';

/** A redis-server started (or found) for tests, on 127.0.0.1. */
export interface TestRedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Stops the server and waits for it to exit (does nothing for a server the tests did not start). */
  stop(): Promise<void>;
  /**
   * Kills the server at once (SIGKILL), as a crash does, and waits for it to exit; its data is gone
   * (no persistence). Start it again with `startRedisServer({ port })`. Does nothing for a server
   * the tests did not start.
   */
  kill(): Promise<void>;
}

/** Options of {@link startRedisServer}. */
export interface StartRedisServerOptions {
  /** The redis-server binary. @default the first one found by `locateRedisServer()` */
  binary?: string;
  /** The port to listen on (to restart a killed server where its clients look for it). @default a free port */
  port?: number;
  /** More redis-server arguments (e.g. `['--cluster-enabled', 'yes']`), after the defaults. @default none */
  args?: readonly string[];
}

const STARTUP_TIMEOUT_MS = 10_000;
const PORT_ATTEMPTS = 3;

/**
 * Starts a throwaway `redis-server` (no persistence, its own free port) and resolves once it
 * answers PING. Test files get theirs through `useRedisServer()` (test/redis/shared-redis.ts),
 * which also knows when Redis is unavailable; benchmarks call this directly.
 *
 * @throws when no binary is given and none is found (the message names the remedy).
 * @example
 * ```ts
 * const server = await startRedisServer();
 * try { ... server.url ... } finally { await server.stop(); }
 * ```
 */
export async function startRedisServer(options: StartRedisServerOptions = {}): Promise<TestRedisServer> {
  const binary = options.binary ?? locateRedisServer(process.env)?.path;
  if (binary === undefined) throw new Error(`Failed to start redis-server: it is not installed. ${REDIS_REMEDY}`);
  const args = options.args ?? [];
  if (options.port !== undefined) return startOnPort(binary, options.port, args);
  let lastError: unknown;
  // Another process may take the free port between our probe and redis-server's bind.
  for (let attempt = 0; attempt < PORT_ATTEMPTS; attempt += 1) {
    try {
      return await startOnPort(binary, await freePort(), args);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** A server the tests did not start (REDIS_URL): `stop()` leaves it running. */
export function existingRedisServer(url: string): TestRedisServer {
  const port = Number(new URL(url).port || 6379);
  return { port, url, stop: async () => undefined, kill: async () => undefined };
}

/** A TCP port free on 127.0.0.1 right now (another process may take it before it is used). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  probe.close();
  await once(probe, 'close');
  if (address === null || typeof address === 'string') throw new Error('Failed to find a free port: the probe server has no TCP address.');
  return address.port;
}

async function startOnPort(binary: string, port: number, extraArgs: readonly string[]): Promise<TestRedisServer> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', tmpdir(), ...extraArgs];
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
  while (!(await answersPing({ host: '127.0.0.1', port }))) {
    if (exited || Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`Failed to start redis-server on port ${port}: ${exited ? 'it exited' : 'no PING answer in 10 s'}. Its output:\n${output}`);
    }
    await sleep(50);
  }
  return { port, url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child), kill: () => killChild(child) };
}

async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = once(child, 'exit');
  child.kill('SIGKILL');
  await exit;
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
