import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { SimulatorStats } from '../../src/testing/index.js';
import { startBenchProcess } from '../support/remote-simulator.js';
import type { Budget, QosServerHello } from '../qos/setup.js';

/** A self-hosted server's budget and the job run against it. */
export interface SelfHostedServer {
  budget: Budget;
  grants: number;
  /** `limits.interactiveReserve` for the client; absent: default options. */
  interactiveReserve?: number;
  /** The server states its budget on every answer (`rateLimitHeaders: 'every-answer'`); absent: only with a 429, as the spec says. */
  stated?: boolean;
}

/** What the worker measured (epoch ms). `attempt` is `callId#attempt`, naming one request. */
export interface SelfHostedRun {
  startedAt: number;
  finishedAt: number;
  /** Every mutation request sent. */
  sends: { at: number; attempt: string }[];
  /** Every 429 received: the request it answered, the limit the server stated, the pause the client took. */
  rateLimited: { at: number; attempt: string; limit: number | undefined; waitMs: number }[];
  /** Every `waiting` event: why the client said a call waited, and how much longer it expected. */
  waiting: { at: number; reason: string; expectedMs: number | undefined }[];
  roundTripMs: number[];
  /** Rows granted (created or already held). */
  done: number;
  failed: number;
  /** Failed rows by error class. */
  failures: Record<string, number>;
  /** True when the cap stopped the job. */
  interrupted: boolean;
}

/** One server's run and what the server counted. */
export interface SelfHostedOutcome {
  server: SelfHostedServer;
  capMs: number;
  run: SelfHostedRun;
  serverMutations: number;
  serverRateLimited: number;
}

const exec = promisify(execFile);

/** Starts a fresh simulator with the server's budget in its own process and runs the job in a fresh client process. */
export async function runSelfHosted(server: SelfHostedServer, capMs: number): Promise<SelfHostedOutcome> {
  const simulator = await startBenchProcess<QosServerHello>('bench/qos/server-process.ts', [String(server.budget.limit), String(server.budget.windowMs), server.stated === true ? 'every-answer' : 'on-429']);
  try {
    const args = [simulator.hello.url, simulator.hello.warmKey, simulator.hello.meetingId, String(server.grants), String(capMs), ...(server.interactiveReserve === undefined ? [] : [String(server.interactiveReserve)])];
    const { stdout } = await exec(process.execPath, ['--import', 'tsx', 'bench/self-hosted/worker.ts', ...args], { maxBuffer: 64 << 20 });
    const run = JSON.parse(stdout) as SelfHostedRun;
    const stats = await simulator.ask<SimulatorStats>('stats');
    return { server, capMs, run, serverMutations: stats.requests.mutations, serverRateLimited: stats.rateLimited.mutations };
  } finally {
    await simulator.close();
  }
}
