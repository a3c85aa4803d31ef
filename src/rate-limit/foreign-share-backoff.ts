import type { LimiterBudget } from './limiter.js';

/** What the store said when a 429 came: how many requests it counted, and when the pause ends. */
export interface RateLimitEvidence {
  /** Requests counted in the bucket at the client's latest permit (every client sharing the store). */
  counted: number;
  /** Epoch ms when the pause set for this 429 ends. */
  pausedUntil: number;
}

/**
 * The share of a key's budget to use after a 429 from traffic this client did not send (another
 * script on the same key). Without it, every window would start with a burst of the full limit,
 * and the part the other client already used would come back as 429s, which the server counts too.
 *
 * When the store says how many requests it counted (both stores of the SDK do):
 * - The 429s that arrive while the pause of the first one lasts answer requests sent before it:
 *   one burst, one piece of news. The share becomes what got through: the requests counted less
 *   that burst's 429s, but never less than half the share in force (a client that had sent little
 *   learns little about the room left).
 * - It grows back only after a whole window without a 429 once the pause ended: by one request, then doubling with
 *   each further quiet window (1, 3, 7, 15, ... in all). A probe beyond the room costs one 429;
 *   growing by a quarter of the limit per window cost a quarter of the limit in 429s each time.
 *
 * Otherwise (a store that does not count): the share halves at the first 429 of a window and grows
 * back by a quarter of the limit per window since (additive increase, multiplicative decrease).
 */
export class ForeignShareBackoff {
  #ceiling: number | undefined;
  /** When growth starts counting windows: the halving, or (counted) the end of the latest 429's pause. */
  #since = 0;
  /** True when the ceiling came from the store's count: growth is a probe, one request at first. */
  #counted = false;
  /** The burst of 429s being counted: until the pause of its first one ends. */
  #burstUntil = 0;
  /** What got through before the burst's 429s: the share in force, or fewer when fewer were counted. */
  #burstSent = 0;
  /** Half the share in force when the burst began: the deepest cut of one burst. */
  #burstFloor = 1;
  #burstRefused = 0;
  /** Whole quiet windows before the share grows (counted): doubles after each probe that met a 429. */
  #holdWindows = 1;

  /** The limit to apply now. */
  limit(budget: LimiterBudget, nowMs: number): number {
    if (this.#ceiling === undefined) return budget.limit;
    const quietWindows = Math.floor((nowMs - this.#since) / budget.windowMs);
    const growth = this.#counted ? probeGrowth(quietWindows, this.#holdWindows) : quietWindows * Math.ceil(budget.limit / 4);
    const ceiling = this.#ceiling + growth;
    if (ceiling >= budget.limit) {
      this.#ceiling = undefined;
      this.#holdWindows = 1;
      return budget.limit;
    }
    return ceiling;
  }

  /**
   * Records a 429. With `evidence` (the store's count), the share becomes what got through in this
   * burst; without, it halves (at least one request per window), once per window: the other 429s
   * of the same burst tell nothing new.
   */
  rateLimited(budget: LimiterBudget, nowMs: number, evidence?: RateLimitEvidence): void {
    if (evidence === undefined) {
      if (this.#ceiling !== undefined && !this.#counted && nowMs - this.#since < budget.windowMs) return;
      this.#ceiling = Math.max(1, Math.floor(this.limit(budget, nowMs) / 2));
      this.#since = nowMs;
      this.#counted = false;
      return;
    }
    if (nowMs >= this.#burstUntil) {
      const inForce = this.limit(budget, nowMs);
      // The share had grown past the room found last time, and met a 429: probe less often.
      if (this.#counted && this.#ceiling !== undefined && inForce > this.#ceiling) this.#holdWindows = Math.min(MAX_HOLD_WINDOWS, this.#holdWindows * 2);
      this.#burstSent = Math.min(inForce, evidence.counted);
      this.#burstFloor = Math.max(1, Math.floor(inForce / 2));
      this.#burstRefused = 0;
    }
    this.#burstRefused += 1;
    this.#burstUntil = Math.max(this.#burstUntil, evidence.pausedUntil);
    this.#ceiling = Math.max(this.#burstFloor, this.#burstSent - this.#burstRefused);
    // Quiet windows count from the end of the pause, when sending resumes: a probe then goes with
    // the first requests of a window, not after them (its pause would hold back the next window).
    this.#since = Math.max(nowMs, evidence.pausedUntil);
    this.#counted = true;
  }
}

/** The longest wait, in quiet windows, before the share grows again after probes that met 429s. */
const MAX_HOLD_WINDOWS = 4;

/** Growth after `quietWindows` whole windows without a 429: none for `holdWindows - 1` of them, then 1, 3, 7, ... */
function probeGrowth(quietWindows: number, holdWindows: number): number {
  return quietWindows < holdWindows ? 0 : 2 ** (quietWindows - holdWindows + 1) - 1;
}
