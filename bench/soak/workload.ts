import { CodedError, type AdminClient } from '../../src/index.js';
import { DEMO_DELETED_MEMBER_NUMBERS, DEMO_IDS, DEMO_MEMBER_COUNT, demoMemberEmail } from '../../src/testing/index.js';

/** How one soak run went, as counted by the client. */
export interface WorkloadReport {
  /** Calls made per SDK method. */
  calls: Record<string, number>;
  /** Failures the workload provoked on purpose, by `method code`. */
  expectedFailures: Record<string, number>;
  /** Every other failure, by `method ErrorClass[ code]`: the soak's target is none. */
  unexplainedFailures: Record<string, number>;
  /** The first few unexplained failures' messages, to debug with. */
  samples: string[];
}

/** Options of {@link runWorkload}. */
export interface WorkloadOptions {
  /** Total SDK calls to make. */
  operations: number;
  /** Concurrent lanes, each working on its own coupon, meetings and members. */
  lanes: number;
  /** Called after every finished call with the number finished so far. */
  onProgress?: (finished: number) => void;
}

const DAY = 86_400;
const deleted = new Set<number>(DEMO_DELETED_MEMBER_NUMBERS);
const liveMembers = Array.from({ length: DEMO_MEMBER_COUNT }, (_, index) => index + 1).filter((n) => !deleted.has(n));

/** A lane's budget of calls: each call takes one ticket. */
class Tickets {
  #left: number;
  constructor(total: number) {
    this.#left = total;
  }
  take(): boolean {
    if (this.#left <= 0) return false;
    this.#left -= 1;
    return true;
  }
}

/** Makes a lane's calls and counts their outcomes in the shared report. */
class Recorder {
  constructor(readonly report: WorkloadReport, readonly tickets: Tickets, readonly onProgress: () => void) {}

  /** Makes one call if the lane has a ticket left (else throws OutOfTickets); resolves with its result, or undefined when it failed. */
  async call<T>(method: string, send: () => Promise<T>, expectedCode?: string): Promise<T | undefined> {
    if (!this.tickets.take()) throw new OutOfTickets();
    this.report.calls[method] = (this.report.calls[method] ?? 0) + 1;
    try {
      return await send();
    } catch (error) {
      const code = error instanceof CodedError ? error.code : undefined;
      if (expectedCode !== undefined && code === expectedCode) bump(this.report.expectedFailures, `${method} ${code}`);
      else this.#unexplained(method, error, code);
      return undefined;
    } finally {
      this.onProgress();
    }
  }

  #unexplained(method: string, error: unknown, code: string | undefined): void {
    const name = error instanceof Error ? error.name : typeof error;
    bump(this.report.unexplainedFailures, `${method} ${name}${code === undefined ? '' : ` ${code}`}`);
    if (this.report.samples.length < 5) this.report.samples.push(`${method}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Thrown inside a lane when the run's calls are used up. */
class OutOfTickets extends Error {}

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

/**
 * Mixed traffic against the demo school, spread over independent lanes so that every call has a
 * predictable outcome: each lane owns a restricted coupon and two future meetings, and cycles its
 * own members through enroll -> reschedule -> rate -> remove, grant -> revoke, coupon and meeting
 * updates; every 25th cycle grants a deleted member (an expected ENROLLMENT-002) and every 40th
 * cancels its meetings in bulk and creates new ones.
 */
export async function runWorkload(admin: AdminClient, options: WorkloadOptions): Promise<WorkloadReport> {
  const report: WorkloadReport = { calls: {}, expectedFailures: {}, unexplainedFailures: {}, samples: [] };
  let finished = 0;
  const progress = (): void => options.onProgress?.(++finished);
  // Each lane gets its share of the calls up front, so a run's mix does not depend on timing.
  const share = (lane: number) => Math.floor(options.operations / options.lanes) + (lane < options.operations % options.lanes ? 1 : 0);
  await Promise.all(
    Array.from({ length: options.lanes }, (_, lane) => runLane(admin, new Recorder(report, new Tickets(share(lane)), progress), lane, options.lanes).catch(stopWhenOutOfTickets)),
  );
  return report;
}

function stopWhenOutOfTickets(error: unknown): void {
  if (!(error instanceof OutOfTickets)) throw error;
}

async function createMeetings(admin: AdminClient, recorder: Recorder, lane: number, round: number): Promise<[string, string] | undefined> {
  const start = Math.floor(Date.now() / 1000) + 30 * DAY + (lane * 100 + round) * 2 * 3600;
  const rows = [0, 1].map((slot) => ({ startedAt: start + slot * 3600, endedAt: start + slot * 3600 + 1800, title: `Soak lane ${lane}` }));
  const result = await recorder.call('bulkCreateMeetings', () => admin.bulkCreateMeetings(DEMO_IDS.defaultModeServiceId, rows));
  const [first, second] = result?.results.map((row) => row.meeting?.id) ?? [];
  return first !== undefined && second !== undefined ? [first, second] : undefined;
}

async function runLane(admin: AdminClient, recorder: Recorder, lane: number, lanes: number): Promise<void> {
  const coupon = await recorder.call('createCoupon', () => admin.createCoupon({ name: `Soak lane ${lane}`, couponType: 'percentage', amount: 10, restricted: true }));
  let meetings = await createMeetings(admin, recorder, lane, 0);
  if (coupon === undefined || meetings === undefined) return;
  for (let cycle = 1; ; cycle += 1) {
    const [from, to] = meetings;
    const email = demoMemberEmail(liveMembers[(lane + cycle * lanes) % liveMembers.length] as number);
    const enrolled = await recorder.call('enrollStudent', () => admin.enrollStudent(from, { email }));
    const userId = enrolled?.user?.id;
    if (userId !== undefined) {
      await recorder.call('rescheduleStudent', () => admin.rescheduleStudent({ userId, fromMeetingId: from, toMeetingId: to }));
      await recorder.call('rateMeeting', () => admin.rateMeeting(to, { userId }, { score: 0.5 * (1 + (cycle % 20)), comment: `cycle ${cycle}` }));
      await recorder.call('removeStudent', () => admin.removeStudent(to, userId));
    }
    const granted = await recorder.call('grantCoupon', () => admin.grantCoupon(coupon.id, { email }));
    if (granted !== undefined) await recorder.call('revokeCouponGrant', () => admin.revokeCouponGrant(granted.grant.id));
    await recorder.call('updateCoupon', () => admin.updateCoupon(coupon.id, { name: `Soak lane ${lane} cycle ${cycle}` }));
    await recorder.call('updateMeeting', () => admin.updateMeeting(from, { title: `Soak lane ${lane} cycle ${cycle}` }));
    if (cycle % 25 === 0) {
      const gone = demoMemberEmail(DEMO_DELETED_MEMBER_NUMBERS[cycle % DEMO_DELETED_MEMBER_NUMBERS.length] as number);
      await recorder.call('grantCoupon', () => admin.grantCoupon(coupon.id, { email: gone }), 'ENROLLMENT-002');
    }
    if (cycle % 40 === 0) {
      await recorder.call('bulkCancelMeetings', () => admin.bulkCancelMeetings(meetings as [string, string]));
      meetings = (await createMeetings(admin, recorder, lane, cycle)) ?? meetings;
    }
  }
}
