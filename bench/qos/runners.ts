import type { AdminClient, PermitStore } from '../../src/index.js';
import { API_KEY, COUPON_ID, memberEmail } from '../pacing/setup.js';
import type { SdkModule } from '../support/sdk-versions.js';
import type { MutationLog } from './cell.js';
import { BULK_CALLS, INTERACTIVE_EVERY_MS, LIMIT, WINDOW_MS } from './setup.js';
import { recordMutations } from './traffic.js';

/** How the bulk work is sent. */
export type BulkKind =
  /** grantCouponToMany over BULK_CALLS members (background by default). */
  | 'grant-to-many'
  /** BULK_CALLS grantCoupon calls fired at once, marked `priority: 'background'`. */
  | 'burst-background'
  /** BULK_CALLS grantCoupon calls fired at once with the default priority (interactive). */
  | 'burst-unmarked';

/** What one process of an issue 13 row measured. */
export interface ProcessRun extends MutationLog {
  /** Latency of each interactive call started while the bulk work ran. */
  interactiveMs: number[];
  interactiveFailed: number;
  bulkStartedAt: number | undefined;
  bulkFinishedAt: number | undefined;
  bulkOk: number;
  bulkFailed: number;
}

/** A client of the benchmark's key on the given store; `interactiveReserve` when the version knows it. */
export function benchClient(sdk: SdkModule, url: string, store: PermitStore, reserve: number | undefined): { admin: AdminClient; run: ProcessRun } {
  const admin = new sdk.AdminClient({
    apiKey: API_KEY,
    baseUrl: url,
    maxRetries: 10,
    limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS }, store, ...(reserve === undefined ? {} : { interactiveReserve: reserve }) },
  });
  const run: ProcessRun = { interactiveMs: [], interactiveFailed: 0, bulkStartedAt: undefined, bulkFinishedAt: undefined, bulkOk: 0, bulkFailed: 0, sentAt: [], roundTripMs: [], rateLimited: 0 };
  recordMutations(admin, run);
  return { admin, run };
}

/** Sends the bulk work and records when it started and ended. */
export async function runBulk(admin: AdminClient, run: ProcessRun, kind: BulkKind): Promise<void> {
  run.bulkStartedAt = Date.now();
  const members = Array.from({ length: BULK_CALLS }, (_, index) => ({ email: memberEmail(index) }));
  if (kind === 'grant-to-many') {
    const summary = await admin.grantCouponToMany(COUPON_ID, members);
    run.bulkOk = summary.counts.created + summary.counts.already_granted;
    run.bulkFailed = summary.counts.failed;
  } else {
    const options = kind === 'burst-background' ? { priority: 'background' as const } : {};
    const outcomes = await Promise.allSettled(members.map((member) => admin.grantCoupon(COUPON_ID, member, options)));
    run.bulkOk = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    run.bulkFailed = outcomes.length - run.bulkOk;
  }
  run.bulkFinishedAt = Date.now();
}

/**
 * One interactive call every `everyMs` (an updateCoupon, then an enrollStudent of the
 * next member into an open meeting, and so on), each timed from call to answer, until `stop()`.
 */
export function startInteractive(admin: AdminClient, run: ProcessRun, meetingId: string, everyMs = INTERACTIVE_EVERY_MS): { stop(): Promise<void> } {
  const calls: Promise<void>[] = [];
  let index = 0;
  const fire = (): void => {
    const started = performance.now();
    const current = index;
    index += 1;
    const call =
      current % 2 === 0
        ? admin.updateCoupon(COUPON_ID, { name: `Alumni ${current}` })
        : admin.enrollStudent(meetingId, { email: memberEmail(current) });
    calls.push(
      call.then(
        () => void run.interactiveMs.push(performance.now() - started),
        () => void (run.interactiveFailed += 1),
      ),
    );
  };
  fire();
  const timer = setInterval(fire, everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(calls);
    },
  };
}
