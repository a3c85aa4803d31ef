import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { SimulatorStats } from '../../src/testing/index.js';

/** The soak server running in a child process (see server-process.ts). */
export interface ServerChild {
  url: string;
  stats(): Promise<SimulatorStats>;
  close(): Promise<void>;
}

/** Starts the soak server with the scaled budget and waits until it listens. */
export async function startServerChild(limit: number, windowMs: number): Promise<ServerChild> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/soak/server-process.ts', String(limit), String(windowMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done === true) throw new Error('Failed to read from the soak server: it exited. See its output above.');
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
      const exited = once(child, 'exit');
      child.stdin.end('close\n');
      await exited;
    },
  };
}
