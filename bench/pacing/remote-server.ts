import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import type { SimulatorStats } from '../../src/testing/index.js';

/** A bench server running in a child process (see server-process.ts). */
export interface RemoteServer {
  url: string;
  stats(): Promise<SimulatorStats>;
  close(): Promise<void>;
}

/** Starts a fresh bench server process and waits until it listens. */
export async function startRemoteServer(): Promise<RemoteServer> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['--import', 'tsx', 'bench/pacing/server-process.ts'], { stdio: 'pipe' });
  child.stderr.pipe(process.stderr);
  const lines: Interface = createInterface({ input: child.stdout });
  const iterator = lines[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const { value, done } = await iterator.next();
    if (done === true) throw new Error('Failed to read from the bench server: it exited.');
    return value as string;
  };
  const { url } = JSON.parse(await nextLine()) as { url: string };
  return {
    url,
    stats: async () => {
      child.stdin.write('stats\n');
      return JSON.parse(await nextLine()) as SimulatorStats;
    },
    close: async () => {
      child.stdin.end('close\n');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
