import type { RateLimitBudget } from '../../client/options.js';
import type { GrantOutcomeCounts, GrantOutcomeKind, GrantProgress } from './types.js';

/** Outcomes that cost a request. */
const SENT: ReadonlySet<GrantOutcomeKind> = new Set(['created', 'already_granted', 'failed']);

/** Zero for every outcome. */
export function emptyCounts(): GrantOutcomeCounts {
  return { created: 0, already_granted: 0, failed: 0, invalid: 0, skipped: 0 };
}

/**
 * Counts finished rows and estimates the time left. The ETA is the larger of two estimates: the
 * observed rate of answered grants, and the rate-limit budget (`limit` grants per `windowMs`, with
 * what the current window still has room for going out at once). Memory: at most `limit` answer
 * times are kept.
 */
export class ProgressTracker {
  readonly #total: number | undefined;
  readonly #budget: RateLimitBudget | undefined;
  readonly #startedAt: number;
  readonly counts = emptyCounts();
  #done = 0;
  #sent = 0;
  #firstSentAt: number | undefined;
  /** Answer times of the grants of the last window, oldest first (a ring of at most `limit`). */
  readonly #recent: number[] = [];

  constructor(options: { total: number | undefined; budget: RateLimitBudget | undefined; startedAt: number }) {
    this.#total = options.total;
    this.#budget = options.budget;
    this.#startedAt = options.startedAt;
  }

  /** Rows finished so far. */
  get done(): number {
    return this.#done;
  }

  /** Records one finished row at time `at` (ms, same clock as `startedAt`). */
  record(kind: GrantOutcomeKind, at: number): void {
    this.counts[kind] += 1;
    this.#done += 1;
    if (!SENT.has(kind)) return;
    this.#sent += 1;
    this.#firstSentAt ??= at;
    if (this.#budget !== undefined) {
      this.#recent.push(at);
      if (this.#recent.length > this.#budget.limit) this.#recent.shift();
    }
  }

  /** The progress at time `now`. */
  snapshot(now: number): GrantProgress {
    const elapsedMs = now - this.#startedAt;
    const sendingMs = this.#firstSentAt === undefined ? 0 : now - this.#firstSentAt;
    const ratePerSecond = sendingMs > 0 ? (this.#sent / sendingMs) * 1000 : 0;
    const remaining = this.#total === undefined ? undefined : Math.max(0, this.#total - this.#done);
    let etaMs: number | undefined;
    let budgetBound = false;
    if (remaining !== undefined) {
      const observed = ratePerSecond > 0 ? (remaining / ratePerSecond) * 1000 : undefined;
      const budget = this.#budgetEta(remaining, now);
      budgetBound = budget !== undefined && (observed === undefined || budget >= observed);
      etaMs = remaining === 0 ? 0 : budgetBound ? budget : observed;
    }
    return { done: this.#done, total: this.#total, counts: { ...this.counts }, elapsedMs, ratePerSecond, etaMs, budgetBound };
  }

  /** What the budget allows: the room left in the current window goes now, the rest at `limit` per window. */
  #budgetEta(remaining: number, now: number): number | undefined {
    if (this.#budget === undefined) return undefined;
    const { limit, windowMs } = this.#budget;
    while (this.#recent.length > 0 && (this.#recent[0] ?? now) <= now - windowMs) this.#recent.shift();
    const roomNow = Math.max(0, limit - this.#recent.length);
    return (Math.max(0, remaining - roomNow) / limit) * windowMs;
  }
}
