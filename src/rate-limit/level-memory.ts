/**
 * The largest level seen within a sliding span of time: each level is remembered until a given
 * time, and `max` answers the largest one still remembered. Levels are small whole numbers (a
 * count of requests) and a lower level that ends no later than a higher one is dropped, so only
 * a few are ever held: a flat array of (level, until) pairs, made on first use, is all it takes
 * (a process with thousands of keys holds two per key).
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
  /** level, epoch ms until which it is remembered; level, until; ... (each level once). */
  #pairs: number[] | undefined;

  /** Remembers `level` until `untilMs` (never shortens what is remembered). */
  record(level: number, untilMs: number): void {
    if (level <= 0) return;
    const pairs = this.#pairs;
    // A level not held counts as remembered until 0. The first pair as a literal: exactly its size.
    if (pairs === undefined) {
      if (untilMs > 0) this.#pairs = [level, untilMs];
      return;
    }
    let found = false;
    for (let index = 0; index < pairs.length; ) {
      const other = pairs[index] as number;
      if (other === level) {
        found = true;
        if ((pairs[index + 1] as number) < untilMs) pairs[index + 1] = untilMs;
      } else if (other < level && (pairs[index + 1] as number) <= untilMs) {
        // A lower level that ends no later than this one can never be the largest again.
        removePair(pairs, index);
        continue;
      }
      index += 2;
    }
    if (!found && untilMs > 0) pairs.push(level, untilMs);
    if (pairs.length === 0) this.#pairs = undefined;
  }

  /** The largest level remembered at `nowMs`, or 0. */
  max(nowMs: number): number {
    const pairs = this.#pairs;
    if (pairs === undefined) return 0;
    let largest = 0;
    for (let index = 0; index < pairs.length; ) {
      if ((pairs[index + 1] as number) <= nowMs) {
        removePair(pairs, index);
        continue;
      }
      largest = Math.max(largest, pairs[index] as number);
      index += 2;
    }
    if (pairs.length === 0) this.#pairs = undefined;
    return largest;
  }

  /** The earliest moment a remembered level is forgotten (when the answer of `max` may drop), or Infinity. */
  nextExpiry(nowMs: number): number {
    let earliest = Number.POSITIVE_INFINITY;
    const pairs = this.#pairs;
    if (pairs === undefined) return earliest;
    for (let index = 1; index < pairs.length; index += 2) {
      const until = pairs[index] as number;
      if (until > nowMs && until < earliest) earliest = until;
    }
    return earliest;
  }
}

/** Removes the pair at `index` of `pairs`: the last pair takes its place. */
function removePair(pairs: number[], index: number): void {
  const last = pairs.length - 2;
  pairs[index] = pairs[last] as number;
  pairs[index + 1] = pairs[last + 1] as number;
  pairs.length = last;
}
