/** What a store knows of one bucket's generation in Redis. */
interface BucketGeneration {
  /** The generation Redis last answered with: `<random id>:<created epoch ms>`. */
  generation: string;
  /** When this store last asked for a permit it got (its clock), and the request's window + lease. */
  lastGrantAt: number;
  spanMs: number;
  /** Own permits that counted when the connection to Redis last dropped, while no answer came since. */
  heldAtDisconnect: number | undefined;
}

/** Buckets looked at per call for being forgotten. */
const SWEEPS_PER_CALL = 2;

/**
 * The generation of each bucket's data in Redis, as one store instance saw it. The acquire script
 * creates a generation when the bucket has none and keeps it twice window + lease after every
 * request, so the generation outlives everything else of the bucket: a store that granted a permit
 * within window + lease and then sees another generation knows Redis lost the bucket's data (a
 * restart without persistence, a failover to an empty replica, a flush), not that the bucket went
 * idle. See {@link StoreResetGuard} for what it then does.
 *
 * @example
 * ```ts
 * const generations = new StoreGenerations();
 * generations.seen('bucket', 'a1:1000', { grantedAt: 1_000, spanMs: 90_000 });
 * generations.expected('bucket', 2_000); // 'a1:1000'
 * ```
 */
export class StoreGenerations {
  readonly #buckets = new Map<string, BucketGeneration>();

  /**
   * The generation a permit request asked for at `now` expects: the one this store saw, when it
   * granted a permit within window + lease (it would know a loss from an idle bucket); else ''.
   */
  expected(bucket: string, now: number): string {
    this.#sweep(now);
    const state = this.#buckets.get(bucket);
    return state !== undefined && now < state.lastGrantAt + state.spanMs ? state.generation : '';
  }

  /** The generation this store last saw for `bucket` (or recovered into), if it remembers one. */
  current(bucket: string): string | undefined {
    return this.#buckets.get(bucket)?.generation;
  }

  /**
   * Records the generation of an answer that showed no reset; `grantedAt` when the answer was a
   * permit (asked for then). Redis held the data at this answer, so a count taken at an earlier
   * disconnect no longer stands for what a later loss takes.
   */
  seen(bucket: string, generation: string, grant: { grantedAt: number; spanMs: number } | undefined): void {
    let state = this.#buckets.get(bucket);
    if (state === undefined) {
      if (grant === undefined) return;
      state = { generation, lastGrantAt: grant.grantedAt, spanMs: grant.spanMs, heldAtDisconnect: undefined };
      this.#buckets.set(bucket, state);
    }
    state.generation = generation;
    state.heldAtDisconnect = undefined;
    if (grant !== undefined && grant.grantedAt >= state.lastGrantAt) {
      state.lastGrantAt = grant.grantedAt;
      state.spanMs = grant.spanMs;
    }
  }

  /**
   * The own permits of `bucket` that counted when Redis lost them, for a store that saw the loss:
   * those that counted when the connection dropped (no later than the loss of a crash or a
   * failover), or those that count now (`countedNow`) when it did not drop (a flush).
   */
  heldAtLoss(bucket: string, countedNow: number): number {
    return this.#buckets.get(bucket)?.heldAtDisconnect ?? countedNow;
  }

  /** Records that this store's permits are back in Redis under `generation`, the bucket's new one. */
  recovered(bucket: string, generation: string): void {
    const state = this.#buckets.get(bucket);
    if (state === undefined) return;
    state.generation = generation;
    state.heldAtDisconnect = undefined;
  }

  /** The connection to Redis dropped: keeps, per bucket, the own permits that counted then. */
  disconnected(countedPerBucket: ReadonlyMap<string, number>): void {
    for (const [bucket, state] of this.#buckets) state.heldAtDisconnect = countedPerBucket.get(bucket) ?? 0;
  }

  /** Forgets buckets whose generation could not tell a reset any more (no permit within window + lease). */
  #sweep(now: number): void {
    for (let swept = 0; swept < SWEEPS_PER_CALL && this.#buckets.size > 0; swept += 1) {
      const [bucket, state] = this.#buckets.entries().next().value as [string, BucketGeneration];
      this.#buckets.delete(bucket);
      if (now >= state.lastGrantAt + state.spanMs) continue;
      this.#buckets.set(bucket, state);
      if (this.#buckets.size === 1) return;
    }
  }
}
