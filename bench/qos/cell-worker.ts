/**
 * One process of a QoS matrix cell: the bulk job, the interactive calls, or both, with default
 * client options (only the server's budget is told, and `interactiveReserve` when the plan has one). A fresh process per cell, so that the
 * process's default store and anything a client learnt start empty. Line protocol: prints
 * `{"ready":true}`; on `go <epochMs>` starts its work at that time: a process running the bulk job
 * answers its CellProcessRun when the job has ended (stopping its own interactive calls then), an
 * interactive-only process answers `{"started":true}`; on `stop` the latter stops its calls and
 * answers its CellProcessRun; `close` ends the process.
 * Usage: node --import tsx bench/qos/cell-worker.ts '<WorkerPlan as JSON>'
 */
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { AdminClient, type PermitStore } from '../../src/index.js';
import { createRedisPermitStore } from '../../src/redis/index.js';
import { API_KEY } from '../pacing/setup.js';
import { emptyRun, type WorkerPlan } from './cell.js';
import { recordClient, runGrantJob, startInteractive, warmUp } from './traffic.js';

const plan = JSON.parse(process.argv[2] ?? 'null') as WorkerPlan | null;
if (plan === null) throw new Error("usage: cell-worker.ts '<WorkerPlan as JSON>'");

const redisStore = plan.store === 'default' ? undefined : createRedisPermitStore(plan.store);
const client = (store: PermitStore | undefined): AdminClient =>
  new AdminClient({
    apiKey: API_KEY,
    baseUrl: plan.url,
    limits: { mutations: plan.budget, ...(store === undefined ? {} : { store }), ...(plan.interactiveReserve === undefined ? {} : { interactiveReserve: plan.interactiveReserve }) },
  });
const run = emptyRun();
// One client does this process's work, unless it runs both roles with a client each.
const admin = client(redisStore);
const interactiveAdmin = plan.clients === 2 && plan.bulkGrants !== undefined && (plan.interactive !== undefined || plan.split === true) ? client(redisStore) : admin;
recordClient(admin, run);
if (interactiveAdmin !== admin) recordClient(interactiveAdmin, run);
const say = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

await warmUp(plan.url, plan.warmKey, plan.meetingId);
say({ ready: true });
let interactive: { stop(): Promise<void> } | undefined;
for await (const line of createInterface({ input: process.stdin })) {
  const [command, argument] = line.split(' ');
  if (command === 'go') {
    const startAt = Number(argument);
    if (plan.interactive !== undefined) interactive = startInteractive(interactiveAdmin, run, plan.meetingId, plan.interactive, startAt);
    if (plan.bulkGrants === undefined) {
      say({ started: true });
      continue;
    }
    await sleep(Math.max(0, startAt + (plan.bulkAfterMs ?? 0) - Date.now()));
    if (plan.split === true) {
      // Two clients of the key, each half of the job (the second client's rows follow the first's).
      const half = Math.ceil(plan.bulkGrants / 2);
      const second = emptyRun();
      await Promise.all([runGrantJob(admin, run, half, 0, plan.concurrency), runGrantJob(interactiveAdmin, second, plan.bulkGrants - half, half, plan.concurrency)]);
      run.bulkStartedAt = Math.min(run.bulkStartedAt ?? Infinity, second.bulkStartedAt ?? Infinity);
      run.bulkFinishedAt = Math.max(run.bulkFinishedAt ?? 0, second.bulkFinishedAt ?? 0);
      run.bulkOk += second.bulkOk;
      run.bulkFailed += second.bulkFailed;
    } else {
      await runGrantJob(admin, run, plan.bulkGrants, plan.firstMember, plan.concurrency);
    }
    await interactive?.stop();
    say(run);
  } else if (command === 'stop') {
    await interactive?.stop();
    say(run);
  } else if (command === 'close') {
    break;
  }
}
await redisStore?.close();
