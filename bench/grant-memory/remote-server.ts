import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The bench server process (see server-process.ts). */
export interface BenchServer {
  url: string;
  apiKey: string;
  couponId: string;
  /** Members holding an active grant, and the most grants any one member holds. */
  grants(): Promise<{ members: number; most: number }>;
  close(): Promise<void>;
}

/** Starts the bench server process and waits until it listens. */
export async function startBenchServer(): Promise<BenchServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/grant-memory/server-process.ts'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const nextLine = async (): Promise<string> => {
    const { value, done } = await lines.next();
    if (done === true) throw new Error('Failed to read from the bench server: it exited. See its output above.');
    return value as string;
  };
  const { url, apiKey, couponId } = JSON.parse(await nextLine()) as { url: string; apiKey: string; couponId: string };
  return {
    url,
    apiKey,
    couponId,
    grants: async () => {
      child.stdin.write('grants\n');
      return JSON.parse(await nextLine()) as { members: number; most: number };
    },
    close: async () => {
      child.stdin.end('close\n');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
