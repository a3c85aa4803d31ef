/**
 * The largest level seen within a sliding span of time: each level is remembered until a given
 * time, and `max` answers the largest one still remembered. Levels are small whole numbers (a
 * count of requests), so the map stays small.
 *
 * @example
 * ```ts
 * const peaks = new LevelMemory();
 * peaks.record(3, 1_000);
 * peaks.max(500); // 3
 * peaks.max(1_000); // 0
 * ```
 */
export class LevelMemory {
  /** level -> epoch ms until which it is remembered. */
  readonly #until = new Map<number, number>();

  /** Remembers `level` until `untilMs` (never shortens what is remembered). */
  record(level: number, untilMs: number): void {
    if (level <= 0) return;
    if ((this.#until.get(level) ?? 0) < untilMs) this.#until.set(level, untilMs);
    // A lower level that ends no later than this one can never be the largest again.
    for (const [other, until] of this.#until) if (other < level && until <= untilMs) this.#until.delete(other);
  }

  /** The largest level remembered at `nowMs`, or 0. */
  max(nowMs: number): number {
    let largest = 0;
    for (const [level, until] of this.#until) {
      if (until <= nowMs) this.#until.delete(level);
      else if (level > largest) largest = level;
    }
    return largest;
  }

  /** The earliest moment a remembered level is forgotten (when the answer of `max` may drop), or Infinity. */
  nextExpiry(nowMs: number): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const until of this.#until.values()) if (until > nowMs && until < earliest) earliest = until;
    return earliest;
  }
}
