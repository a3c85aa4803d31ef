import type { LimiterBudget } from './limiter.js';

/**
 * The share of a key's budget to use after a 429 from traffic this client did not send (another
 * script on the same key): halved at each 429, then grown back by a quarter of the limit per
 * window since the last halving (additive increase, multiplicative decrease). Without it, every window would
 * start with a burst of the full limit, and the part the other client already used would come
 * back as 429s, which the server counts too.
 */
export class ForeignShareBackoff {
  #ceiling: number | undefined;
  #since = 0;

  /** The limit to apply now. */
  limit(budget: LimiterBudget, nowMs: number): number {
    if (this.#ceiling === undefined) return budget.limit;
    const quietWindows = Math.floor((nowMs - this.#since) / budget.windowMs);
    const ceiling = this.#ceiling + quietWindows * Math.ceil(budget.limit / 4);
    if (ceiling >= budget.limit) {
      this.#ceiling = undefined;
      return budget.limit;
    }
    return ceiling;
  }

  /**
   * Records a 429: the share halves (at least one request per window), once per window: the other
   * 429s of the same burst tell nothing new.
   */
  rateLimited(budget: LimiterBudget, nowMs: number): void {
    if (this.#ceiling !== undefined && nowMs - this.#since < budget.windowMs) return;
    this.#ceiling = Math.max(1, Math.floor(this.limit(budget, nowMs) / 2));
    this.#since = nowMs;
  }
}
