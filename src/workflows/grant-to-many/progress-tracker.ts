import type { RateLimitBudget } from '../../client/options/options.js';
import type { GrantOutcomeCounts, GrantOutcomeKind, GrantProgress } from './types.js';


/** How many recent answers the throughput estimate looks at. */
const RATE_SAMPLE = 100;

/** Zero for every outcome. */
export function emptyCounts(): GrantOutcomeCounts {
  return { created: 0, already_granted: 0, failed: 0, invalid: 0, skipped: 0 };
}

/**
 * Counts finished rows and estimates the time left as the larger of two estimates:
 *
 * - the budget: with `limit` requests per sliding `windowMs`, a slot frees `windowMs` after each
 *   answer of the current window, and free slots are used at once; so the n-th next grant goes
 *   when the matching slot frees, plus one window per full round of `limit` before it (roughly
 *   `remaining / limit * windowMs` once the budget is saturated);
 * - the throughput: the rate of the last {@link RATE_SAMPLE} answers (a burst when the budget is
 *   the bottleneck, so this only wins when the server or the network is slower than the budget).
 *
 * On resume, both count only the rows that still need a request: the members the journal holds
 * as done are skipped as they come (`skipsAhead`), and the requests of the earlier run that still
 * count take their slots in the budget's window (`earlierAnsweredAgoMs`).
 *
 * Memory: at most `limit` + {@link RATE_SAMPLE} answer times are kept.
 */
export class ProgressTracker {
  readonly #total: number | undefined;
  readonly #budget: RateLimitBudget | undefined;
  readonly #startedAt: number;
  readonly counts = emptyCounts();
  #done = 0;
  #sent = 0;
  /** Answer times inside the current window, oldest first (at most `limit`). */
  readonly #window: number[] = [];
  /** The latest answer times, oldest first (at most {@link RATE_SAMPLE}). */
  readonly #latest: number[] = [];

  /** Rows the journal holds as done that the job has not met yet: they will be skipped, not sent. */
  #skipsAhead: number;

  constructor(options: { total: number | undefined; budget: RateLimitBudget | undefined; startedAt: number; skipsAhead?: number | undefined; earlierAnsweredAgoMs?: readonly number[] | undefined }) {
    this.#total = options.total;
    this.#budget = options.budget;
    this.#startedAt = options.startedAt;
    this.#skipsAhead = options.skipsAhead ?? 0;
    // Oldest first, at most a limit of them, like this run's own answers.
    const earlier = [...(options.earlierAnsweredAgoMs ?? [])].sort((a, b) => b - a).map((ago) => options.startedAt - ago);
    if (this.#budget !== undefined) this.#window.push(...earlier.slice(-this.#budget.limit));
  }

  /** Rows finished so far. */
  get done(): number {
    return this.#done;
  }

  /**
   * Records one finished row at time `at` (ms, same clock as `startedAt`, never going back);
   * `sent` when it cost a request (a journaled failure not sent again did not).
   */
  record(kind: GrantOutcomeKind, at: number, sent: boolean): void {
    this.counts[kind] += 1;
    this.#done += 1;
    if (kind === 'skipped' && this.#skipsAhead > 0) this.#skipsAhead -= 1;
    if (!sent) return;
    this.#sent += 1;
    this.#latest.push(at);
    if (this.#latest.length > RATE_SAMPLE) this.#latest.shift();
    if (this.#budget !== undefined) {
      this.#window.push(at);
      if (this.#window.length > this.#budget.limit) this.#window.shift();
    }
  }

  /** The progress at time `now`. */
  snapshot(now: number): GrantProgress {
    const elapsedMs = now - this.#startedAt;
    const ratePerSecond = elapsedMs > 0 ? (this.#sent / elapsedMs) * 1000 : 0;
    // The rows still to send: the journal's done members yet to come are skips, not work.
    const remaining = this.#total === undefined ? undefined : Math.max(0, this.#total - this.#done - this.#skipsAhead);
    if (remaining === undefined) return { done: this.#done, total: this.#total, counts: { ...this.counts }, sent: this.#sent, elapsedMs, ratePerSecond, etaMs: undefined, budgetBound: false };
    const budget = this.#budgetEta(remaining, now);
    const throughput = this.#throughputEta(remaining);
    const budgetBound = budget !== undefined && budget > 0 && (throughput === undefined || budget >= throughput);
    const etaMs = remaining === 0 ? 0 : budgetBound ? budget : throughput ?? budget;
    return { done: this.#done, total: this.#total, counts: { ...this.counts }, sent: this.#sent, elapsedMs, ratePerSecond, etaMs, budgetBound };
  }

  #budgetEta(remaining: number, now: number): number | undefined {
    if (this.#budget === undefined) return undefined;
    if (remaining === 0) return 0;
    const { limit, windowMs } = this.#budget;
    while (this.#window.length > 0 && (this.#window[0] ?? now) <= now - windowMs) this.#window.shift();
    const room = limit - this.#window.length;
    // Slot k (0-based, in the order they free) frees now for the `room` free ones, else windowMs
    // after the matching answer; every further round of `limit` grants waits one more window.
    const last = remaining - 1;
    const slot = last % limit;
    const freesAt = slot < room ? now : (this.#window[slot - room] ?? now) + windowMs;
    return Math.max(0, freesAt + Math.floor(last / limit) * windowMs - now);
  }

  #throughputEta(remaining: number): number | undefined {
    const first = this.#latest[0];
    const last = this.#latest.at(-1);
    if (first === undefined || last === undefined || this.#latest.length < 2) return undefined;
    if (last === first) return 0;
    return (remaining / (this.#latest.length - 1)) * (last - first);
  }
}
