import { startRedisServer, type TestRedisServer } from '../../test/support/redis-server.js';
import type { SimulatorStats } from '../../src/testing/index.js';
import { startBenchProcess, type BenchProcess } from '../support/remote-simulator.js';
import type { CellPlan, CellProcessRun, WorkerPlan } from './cell.js';
import type { QosServerHello } from './setup.js';

/** What one cell produced: every process's run and what the server counted. */
export interface CellOutcome {
  plan: CellPlan;
  runs: CellProcessRun[];
  serverMutations: number;
  serverRateLimited: number;
  /** Wall time of the cell, processes' start-up included. */
  wallMs: number;
}

/** Time the processes get between `go` and the bulk job's start, so that every process starts together. */
const START_MARGIN_MS = 300;

/**
 * The worker processes of a topology: the bulk process first. A batch cell's job waits a window
 * when other traffic comes first, and two clients or processes each run half of it (the second
 * one makes the other traffic).
 */
function workerPlans(plan: CellPlan, hello: QosServerHello, redisUrl: string | undefined): WorkerPlan[] {
  const batch = plan.batch;
  const base = {
    url: hello.url,
    meetingId: hello.meetingId,
    warmKey: hello.warmKey,
    budget: plan.budget,
    ...(plan.interactiveReserve === undefined ? {} : { interactiveReserve: plan.interactiveReserve }),
    ...(plan.concurrency === undefined ? {} : { concurrency: plan.concurrency }),
    ...(batch?.start === 'after' ? { bulkAfterMs: plan.budget.windowMs } : {}),
  };
  if (plan.topology === 'two-processes') {
    if (redisUrl === undefined) throw new Error('two-processes needs Redis');
    const half = Math.ceil(plan.bulkGrants / 2);
    return [
      { ...base, store: redisUrl, clients: 1, bulkGrants: batch === undefined ? plan.bulkGrants : half, interactive: undefined },
      { ...base, store: redisUrl, clients: 1, bulkGrants: batch === undefined ? undefined : plan.bulkGrants - half, interactive: plan.interactive, ...(batch === undefined ? {} : { firstMember: half }) },
    ];
  }
  return [{ ...base, store: 'default', clients: plan.topology === 'one' ? 1 : 2, bulkGrants: plan.bulkGrants, interactive: plan.interactive, ...(batch !== undefined && plan.topology === 'two-clients' ? { split: true } : {}) }];
}

/**
 * Runs one cell: a fresh server with the cell's budget in its own process, fresh client processes
 * (and a fresh Redis for two processes), everything started at one epoch time.
 */
export async function runCell(plan: CellPlan): Promise<CellOutcome> {
  const began = Date.now();
  const server = await startBenchProcess<QosServerHello>('bench/qos/server-process.ts', [String(plan.budget.limit), String(plan.budget.windowMs)]);
  let redis: TestRedisServer | undefined;
  let workers: BenchProcess<unknown>[] = [];
  try {
    if (plan.topology === 'two-processes') redis = await startRedisServer();
    const plans = workerPlans(plan, server.hello, redis?.url);
    workers = await Promise.all(plans.map((workerPlan) => startBenchProcess<unknown>('bench/qos/cell-worker.ts', [JSON.stringify(workerPlan)])));
    const [bulk, ...others] = workers as [BenchProcess<unknown>, ...BenchProcess<unknown>[]];
    const startAt = Date.now() + START_MARGIN_MS;
    const bulkDone = bulk.ask<CellProcessRun>(`go ${startAt}`);
    for (const other of others) await other.ask(`go ${startAt}`);
    const runs = [await bulkDone];
    for (const other of others) runs.push(await other.ask<CellProcessRun>('stop'));
    const stats = await server.ask<SimulatorStats>('stats');
    return { plan, runs, serverMutations: stats.requests.mutations, serverRateLimited: stats.rateLimited.mutations, wallMs: Date.now() - began };
  } finally {
    await Promise.all(workers.map((worker) => worker.close()));
    await redis?.stop();
    await server.close();
  }
}
