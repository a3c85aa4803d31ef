import type { AdminClient } from '../../src/index.js';
import { COUPON_ID, memberEmail } from '../pacing/setup.js';
import type { CellProcessRun, InteractivePlan, MutationLog } from './cell.js';

/**
 * Runs the code paths of a cell once on another key of the school (its own budget, its own bucket
 * in the store): a cold process on a loaded machine sent a job's first window up to 1.7 s late,
 * and the sliding window repeats that lateness in every window after it.
 */
export async function warmUp(url: string, warmKey: string, meetingId: string): Promise<void> {
  const { AdminClient } = await import('../../src/index.js');
  const admin = new AdminClient({ apiKey: warmKey, baseUrl: url });
  await admin.grantCouponToMany(COUPON_ID, [0, 1, 2].map((index) => ({ email: memberEmail(index) })));
  await admin.updateCoupon(COUPON_ID, { name: 'Warm' });
  await admin.enrollStudent(meetingId, { email: memberEmail(3) });
}

/** Records, on `log`, every mutation attempt `admin` sends, its round trip and its 429s. */
export function recordMutations(admin: AdminClient, log: MutationLog): void {
  admin.on('request', (event) => {
    if (event.operationType === 'mutations') log.sentAt.push(Date.now());
  });
  admin.on('response', (event) => {
    if (event.operationType === 'mutations') log.roundTripMs.push(event.durationMs);
  });
  admin.on('rateLimited', () => {
    log.rateLimited += 1;
  });
}

/** Records, on `run`, what recordMutations does and the client's `waiting` events by reason. */
export function recordClient(admin: AdminClient, run: CellProcessRun): void {
  recordMutations(admin, run);
  admin.on('waiting', (event) => {
    run.waiting[event.reason] = (run.waiting[event.reason] ?? 0) + 1;
  });
}

/** `grantCouponToMany` of `count` members (from member `first` on) with the job's defaults (background lane, default concurrency unless `concurrency`). */
export async function runGrantJob(admin: AdminClient, run: CellProcessRun, count: number, first = 0, concurrency?: number): Promise<void> {
  run.bulkStartedAt = Date.now();
  const members = Array.from({ length: count }, (_, index) => ({ email: memberEmail(first + index) }));
  const summary = await admin.grantCouponToMany(COUPON_ID, members, concurrency === undefined ? {} : { concurrency });
  run.bulkOk = summary.counts.created + summary.counts.already_granted;
  run.bulkFailed = summary.counts.failed;
  run.bulkFinishedAt = Date.now();
}

/**
 * Interactive traffic from epoch `startAt`: `plan.burst` calls at once every `plan.periodMs` (an
 * updateCoupon, then an enrollStudent of the next member into the open meeting, and so on), each
 * timed from call to answer. Bursts are scheduled from `startAt`, so they do not drift.
 */
export function startInteractive(admin: AdminClient, run: CellProcessRun, meetingId: string, plan: InteractivePlan, startAt: number): { stop(): Promise<void> } {
  const calls: Promise<void>[] = [];
  let index = 0;
  let bursts = 0;
  let timer: NodeJS.Timeout | undefined;
  const call = (): void => {
    const at = Date.now();
    const started = performance.now();
    const current = index;
    index += 1;
    const pending = current % 2 === 0 ? admin.updateCoupon(COUPON_ID, { name: `Alumni ${current}` }) : admin.enrollStudent(meetingId, { email: memberEmail(current) });
    calls.push(
      pending.then(
        () => void run.interactive.push({ at, ms: performance.now() - started, ok: true }),
        () => void run.interactive.push({ at, ms: performance.now() - started, ok: false }),
      ),
    );
  };
  const schedule = (): void => {
    if (plan.untilMs !== undefined && plan.firstAfterMs + bursts * plan.periodMs >= plan.untilMs) return;
    timer = setTimeout(
      () => {
        for (let n = 0; n < plan.burst; n += 1) call();
        bursts += 1;
        schedule();
      },
      Math.max(0, startAt + plan.firstAfterMs + bursts * plan.periodMs - Date.now()),
    );
  };
  schedule();
  return {
    stop: async () => {
      clearTimeout(timer);
      await Promise.all(calls);
    },
  };
}
