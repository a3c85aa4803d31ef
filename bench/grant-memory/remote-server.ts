import { startBenchProcess } from '../support/remote-simulator.js';

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
  const server = await startBenchProcess<{ url: string; apiKey: string; couponId: string }>('bench/grant-memory/server-process.ts');
  return { ...server.hello, grants: () => server.ask('grants'), close: () => server.close() };
}
