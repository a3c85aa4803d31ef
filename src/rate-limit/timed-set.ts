import { MinHeap } from './min-heap.js';

/** One member of a {@link TimedSet} with its time. */
export interface TimedEntry {
  readonly id: string;
  readonly at: number;
}

/**
 * A set of ids, each with a time (a lease end or an expiry), that answers "which times are the
 * earliest" in O(log n): a map for membership plus a min-heap of times. Removing or re-timing an id
 * leaves its old heap entry behind; such stale entries are skipped when read and dropped when they
 * reach the top, and the heap is rebuilt when they outnumber the live ones.
 *
 * @example
 * ```ts
 * const leases = new TimedSet();
 * leases.set('p1', 1_500);
 * leases.takeUntil(2_000); // [{ id: 'p1', at: 1_500 }]
 * ```
 */
export class TimedSet {
  readonly #times = new Map<string, number>();
  readonly #heap = new MinHeap<TimedEntry>((entry) => entry.at);

  /** How many ids the set holds. */
  get size(): number {
    return this.#times.size;
  }

  /** The time of `id`, or `undefined` when it is not in the set. */
  get(id: string): number | undefined {
    return this.#times.get(id);
  }

  /** Every id with its time, in no particular order. */
  entries(): IterableIterator<[string, number]> {
    return this.#times.entries();
  }

  /** Adds `id` with time `at`, or moves it to `at` when it is already there. */
  set(id: string, at: number): void {
    // An id's live heap entry is the one matching its time, so an unchanged time needs no new entry.
    if (this.#times.get(id) === at) return;
    this.#times.set(id, at);
    this.#heap.push({ id, at });
    this.#compactIfMostlyStale();
  }

  /** Removes `id`; true when it was there. */
  delete(id: string): boolean {
    const deleted = this.#times.delete(id);
    if (deleted) this.#compactIfMostlyStale();
    return deleted;
  }

  /** Removes and returns, earliest first, every entry whose time is at or before `now`. */
  takeUntil(now: number): TimedEntry[] {
    const taken: TimedEntry[] = [];
    for (let top = this.#heap.peek(); top !== undefined && top.at <= now; top = this.#heap.peek()) {
      this.#heap.pop();
      if (this.#isLive(top)) {
        this.#times.delete(top.id);
        taken.push(top);
      }
    }
    return taken;
  }

  /**
   * The `rank`-th earliest time (1 = the earliest), or `undefined` when the set holds fewer ids.
   * Costs O(rank log rank) plus the stale entries met on the way.
   */
  nthEarliest(rank: number): number | undefined {
    if (rank < 1 || rank > this.#times.size) return undefined;
    let seen = 0;
    for (const entry of this.#heap.ascending()) {
      if (!this.#isLive(entry)) continue;
      seen += 1;
      if (seen === rank) return entry.at;
    }
    return undefined;
  }

  #isLive(entry: TimedEntry): boolean {
    return this.#times.get(entry.id) === entry.at;
  }

  #compactIfMostlyStale(): void {
    // Bounds memory when ids are removed long before their time comes (released permits).
    if (this.#heap.size <= 2 * this.#times.size + 32) return;
    this.#heap.replaceAll(Array.from(this.#times, ([id, at]) => ({ id, at })));
  }
}
