/**
 * What a QoS cell's two targets leave to any pacing, in slot-cycles (one slot unused for one
 * `window + rtt`): how much the bulk ratio lets go unused, and how much keeping interactive calls
 * fast must leave unused when the client does not know when they come.
 *
 * A cell misses a target whatever the pacing when the second exceeds the first. Both are
 * approximations in the direction that makes that verdict safe: the allowance is an upper bound,
 * the least idle a lower bound (see each function). bench/README.md ("What no pacing can meet")
 * works through them.
 */
import type { Budget } from './setup.js';
import { safeBoundMs } from './setup.js';

/** One cell's run, as the bound needs it. */
export interface IdleBoundInput {
  budget: Budget;
  /** Median round trip of the cell's mutations. */
  roundTripMs: number;
  /** Mutations sent (bulk and interactive) until the bulk job ended. */
  sent: number;
  /** Interactive calls made at once (1, or 3 for `burst3`). */
  burst: number;
  /** Interactive calls counted in the cell. */
  calls: number;
  /** The bulk ratio's target (bulk time / bound). */
  ratioTarget: number;
  /** The p95 target, in round trips. */
  p95Target: number;
}

/** The two sides of the comparison, and the figures they come from. */
export interface IdleBound {
  /** How long a slot takes from one send to the next it may carry: a window and a round trip. */
  cycleMs: number;
  /** Slots the bound's last window leaves unused: `ceil(sent / limit) x limit - sent`. */
  slack: number;
  /** The most slot-cycles the job may leave unused and still end within the ratio target (an upper bound). */
  allowed: number;
  /** The least slot-cycles a client must leave unused for every call to start within `waitMs` (a lower bound). */
  forced: number;
  /** How long a call may wait for a slot and still meet p95: the target's round trips, its own round trip not taken off. */
  waitMs: number;
  /** Of `forced`: slots kept free the whole job (the rest is counts spread over the window). */
  keptFree: number;
  /** `forced > allowed`: no pacing that does not know when calls come meets both targets in this run. */
  conflict: boolean;
}

/**
 * The most slot-cycles a job may leave unused and still end within `ratioTarget` of the bound.
 *
 * The bound sends every slot `ceil(sent / limit)` times, one cycle apart, except `slack` slots in
 * its last window, and ends a round trip after the last send. Ending `ratioTarget - 1` of the
 * bound later lets each slot start its last use that much later; a slack slot may lose a whole
 * use. Idle slot time beyond `slack` cycles and `limit x (ratioTarget - 1) x bound` pushes a use
 * past the end: it is the most, not what every schedule can reach.
 */
export function idleAllowed(budget: Budget, roundTripMs: number, sent: number, ratioTarget: number): { allowed: number; slack: number; cycleMs: number } {
  const cycleMs = budget.windowMs + roundTripMs;
  const slack = Math.ceil(sent / budget.limit) * budget.limit - sent;
  const spareMs = (ratioTarget - 1) * safeBoundMs(sent, roundTripMs, budget);
  return { allowed: slack + (budget.limit * spareMs) / cycleMs, slack, cycleMs };
}

/**
 * The least slot-cycles left unused by a client that keeps every burst of `burst` calls within
 * `waitMs` of a slot, when a burst may come at any moment of the job.
 *
 * A burst starts at once on the slots free when it comes and on those whose counts end within
 * `waitMs` (interactive calls go first). Keeping `f` slots free for the job costs `f` per cycle of
 * the bound (the job lasts at least that long). The other `burst - f` must end within every
 * stretch of `waitMs`: counts spread over the cycle, outside the stretch the ratio lets the bound's
 * sends slip by; each slot spread there cannot make its last use in time. The cheapest mix is
 * taken. With 20 calls or more, p95 lets `1 - ceil(0.95 n) / n` of them wait: the time left
 * uncovered may be that share.
 */
export function idleForced(input: IdleBoundInput): { forced: number; keptFree: number; waitMs: number } {
  const { budget, roundTripMs, sent, burst, calls, ratioTarget, p95Target } = input;
  const cycleMs = budget.windowMs + roundTripMs;
  const boundMs = safeBoundMs(sent, roundTripMs, budget);
  const waitMs = p95Target * roundTripMs;
  const cycles = boundMs / cycleMs;
  const spreadPerSlot = Math.max(0, cycleMs - (ratioTarget - 1) * boundMs - waitMs) / waitMs;
  const covered = calls < 20 ? 1 : Math.ceil(0.95 * calls) / calls;
  let best = { forced: Number.POSITIVE_INFINITY, keptFree: 0 };
  for (let kept = 0; kept <= burst; kept += 1) {
    const forced = covered * (kept * cycles + (burst - kept) * spreadPerSlot);
    if (forced < best.forced) best = { forced, keptFree: kept };
  }
  return { ...best, waitMs };
}

/** Both sides for one cell's run. */
export function idleBound(input: IdleBoundInput): IdleBound {
  const { allowed, slack, cycleMs } = idleAllowed(input.budget, input.roundTripMs, input.sent, input.ratioTarget);
  const { forced, keptFree, waitMs } = idleForced(input);
  return { cycleMs, slack, allowed, forced, waitMs, keptFree, conflict: forced > allowed };
}
