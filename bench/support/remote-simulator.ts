import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { SimulatorStats } from '../../src/testing/index.js';

/**
 * A benchmark's server script running in its own process (as a real server is), spoken to by a
 * line protocol: it prints one JSON line when listening (`hello`), answers each command written to
 * its stdin with one JSON line, and exits on `close`.
 */
export interface BenchProcess<THello> {
  hello: THello;
  ask<T>(command: string): Promise<T>;
  close(): Promise<void>;
}

/** Starts `script` with tsx and waits for its first line. */
export async function startBenchProcess<THello>(script: string, args: readonly string[] = []): Promise<BenchProcess<THello>> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done === true) throw new Error(`Failed to read from ${script}: it exited. See its output above.`);
    return value as string;
  };
  const hello = JSON.parse(await nextLine()) as THello;
  return {
    hello,
    ask: async <T>(command: string): Promise<T> => {
      child.stdin.write(`${command}\n`);
      return JSON.parse(await nextLine()) as T;
    },
    close: async () => {
      const exited = once(child, 'exit');
      child.stdin.end('close\n');
      await exited;
    },
  };
}

/** A simulator in its own process that answers `stats` (pacing and soak benchmarks). */
export interface RemoteSimulator {
  url: string;
  stats(): Promise<SimulatorStats>;
  close(): Promise<void>;
}

/** Starts a simulator script that prints `{"url": ...}` and answers `stats`. */
export async function startRemoteSimulator(script: string, args: readonly string[] = []): Promise<RemoteSimulator> {
  const server = await startBenchProcess<{ url: string }>(script, args);
  return { url: server.hello.url, stats: () => server.ask<SimulatorStats>('stats'), close: () => server.close() };
}
