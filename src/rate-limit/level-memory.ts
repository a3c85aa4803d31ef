/**
 * The largest level seen within a sliding span of time: each level is remembered until a given
 * time, and `max` answers the largest one still remembered. Levels are small whole numbers (a
 * count of requests) and a lower level that ends no later than a higher one is dropped, so only
 * a few are ever held, most often one: it sits in two fields, and further (level, until) pairs in
 * an array made when needed (a process with thousands of keys holds two of these per key).
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
  /** The first remembered level (0: none) and the epoch ms until which it is. */
  #level = 0;
  #until = 0;
  /** Further pairs: level, until; level, until; ... (each level once, none equal to `#level`). */
  #more: number[] | undefined;

  /** Remembers `level` until `untilMs` (never shortens what is remembered). */
  record(level: number, untilMs: number): void {
    if (level <= 0) return;
    let found = false;
    if (this.#level === level) {
      found = true;
      if (this.#until < untilMs) this.#until = untilMs;
    } else if (this.#level > 0 && this.#level < level && this.#until <= untilMs) {
      // A lower level that ends no later than this one can never be the largest again.
      this.#level = 0;
    }
    const more = this.#more;
    if (more !== undefined) {
      for (let index = 0; index < more.length; ) {
        const other = more[index] as number;
        if (other === level) {
          found = true;
          if ((more[index + 1] as number) < untilMs) more[index + 1] = untilMs;
        } else if (other < level && (more[index + 1] as number) <= untilMs) {
          removePair(more, index);
          continue;
        }
        index += 2;
      }
    }
    // A level not held counts as remembered until 0.
    if (!found && untilMs > 0) this.#add(level, untilMs);
    this.#settle();
  }

  /** The largest level remembered at `nowMs`, or 0. */
  max(nowMs: number): number {
    if (this.#level > 0 && this.#until <= nowMs) this.#level = 0;
    let largest = this.#level;
    const more = this.#more;
    if (more !== undefined) {
      for (let index = 0; index < more.length; ) {
        if ((more[index + 1] as number) <= nowMs) {
          removePair(more, index);
          continue;
        }
        largest = Math.max(largest, more[index] as number);
        index += 2;
      }
    }
    this.#settle();
    return largest;
  }

  /** The earliest moment a remembered level is forgotten (when the answer of `max` may drop), or Infinity. */
  nextExpiry(nowMs: number): number {
    let earliest = this.#level > 0 && this.#until > nowMs ? this.#until : Number.POSITIVE_INFINITY;
    const more = this.#more;
    if (more === undefined) return earliest;
    for (let index = 1; index < more.length; index += 2) {
      const until = more[index] as number;
      if (until > nowMs && until < earliest) earliest = until;
    }
    return earliest;
  }

  #add(level: number, untilMs: number): void {
    if (this.#level === 0) {
      this.#level = level;
      this.#until = untilMs;
    } else if (this.#more === undefined) {
      this.#more = [level, untilMs];
    } else {
      this.#more.push(level, untilMs);
    }
  }

  /** Keeps the fields filled first, and no empty array. */
  #settle(): void {
    const more = this.#more;
    if (more === undefined) return;
    if (this.#level === 0 && more.length > 0) {
      this.#level = more[0] as number;
      this.#until = more[1] as number;
      removePair(more, 0);
    }
    if (more.length === 0) this.#more = undefined;
  }
}

/** Removes the pair at `index` of `pairs`: the last pair takes its place. */
function removePair(pairs: number[], index: number): void {
  const last = pairs.length - 2;
  pairs[index] = pairs[last] as number;
  pairs[index + 1] = pairs[last + 1] as number;
  pairs.length = last;
}
