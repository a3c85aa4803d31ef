/**
 * What each pacing mode promises a bulk job (issue 27), as the formula README "Pacing in short",
 * docs/options.md, docs/architecture.md and bench/README.md state. bench:qos judges every cell
 * against the promise of its mode (cell-figures.ts).
 *
 * Default mode (interactive calls first). With L the limit, W the window, rtt the round trip, k the
 * slots kept free (the reserve r = max(1, ceil(2% of L)) from 10 per window up, or the largest
 * interactive burst when larger) and R the ramp (max(r, ceil(25% of L))), a job during which n
 * mutations are sent (its own and interactive calls beside it) ends within
 *
 *   P(n) = (ceil(n / (L - k)) - 1) x (W + rtt) + rtt + W x max(0, last - (L - R)) / R,
 *   last = n - (ceil(n / (L - k)) - 1) x (L - k)   (the requests of its last round)
 *
 * that is, the safe bound on L - k slots instead of L (the reserve's price: a whole W + rtt when
 * that takes one round more, ceil(n / (L - k)) > ceil(n / L): jobs whose last round leaves fewer
 * than about k slots per round spare), plus the ramp's price, for a job that starts with no bulk
 * work counted: the requests of its last round beyond L - R wait for the slots the first window
 * handed out evenly, up to (R - k) / R of a window (jobs whose last round takes more than L - R
 * slots). Judged with the 3% the plain bound has: bulk time <= 1.03 x P(n).
 *
 * Batch mode (`interactiveReserve: 0`): k = 0 and no ramp, P(n) is the safe bound itself: within
 * 1.03 x it.
 */
import { DEFAULTS } from '../../src/client/options/options.js';
import { SMALL_BUDGET } from '../../src/rate-limit/limiter.js';
import type { Budget } from './setup.js';

/** The default mode's reserve and ramp at `limit` (none below SMALL_BUDGET per window). */
export function defaultSlots(limit: number): { reserve: number; ramp: number } {
  if (limit < SMALL_BUDGET) return { reserve: 0, ramp: 0 };
  const reserve = Math.max(1, Math.ceil(DEFAULTS.interactiveReserveShare * limit));
  return { reserve, ramp: Math.max(reserve, Math.ceil(DEFAULTS.bulkRampShare * limit)) };
}

/**
 * The default mode's promise for a job during which `sent` mutations went (see the file's comment),
 * with interactive calls `burst` at a time beside it (0: none); `reserve` when the client set
 * `interactiveReserve` (its ramp is then the larger of it and 25%).
 */
export function defaultPromiseMs(sent: number, roundTripMs: number, budget: Budget, burst: number, reserveSet?: number): number {
  const slots0 = defaultSlots(budget.limit);
  const reserve = reserveSet ?? slots0.reserve;
  const ramp = reserveSet === undefined ? slots0.ramp : Math.max(reserveSet, budget.limit < SMALL_BUDGET ? 0 : Math.ceil(DEFAULTS.bulkRampShare * budget.limit));
  const slots = budget.limit - Math.min(budget.limit - 1, Math.max(reserve, burst));
  const rounds = Math.ceil(sent / slots);
  const last = sent - (rounds - 1) * slots;
  const rampMs = ramp === 0 ? 0 : (budget.windowMs * Math.max(0, last - (budget.limit - ramp))) / ramp;
  return (rounds - 1) * (budget.windowMs + roundTripMs) + roundTripMs + rampMs;
}
