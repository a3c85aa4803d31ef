import { assertValidAcquireRequest } from './acquire-request-checks.js';
import type { AcquireRequest, AcquireResult, PermitStore } from './permit-store.js';
import { ReleaseListeners } from './release-listeners.js';
import { TimedSet } from './timed-set.js';

/** Options of {@link MemoryPermitStore}. */
export interface MemoryPermitStoreOptions {
  /**
   * The clock, in epoch milliseconds. Tests pass a virtual clock.
   * @default Date.now
   */
  now?: () => number;
}

/** What one bucket holds between calls. */
interface BucketState {
  /** Permits not yet released, timed by their lease end. */
  readonly inFlight: TimedSet;
  /** Answered permits, timed by the end of their count (answer + window). */
  readonly answered: TimedSet;
  /** Epoch ms before which the bucket is paused; 0 when it never was. */
  pausedUntil: number;
}

/**
 * The {@link PermitStore} of a single process: exact, in memory, O(log n) per call.
 *
 * Every request counts from the moment its permit is granted until `windowMs` after its response
 * (`release`); a permit not released within `leaseMs` counts as answered at its lease's end.
 *
 * @example
 * ```ts
 * const store = new MemoryPermitStore();
 * const bucket = bucketName(apiKey, 'mutations');
 * const result = await store.tryAcquire({ bucket, limit: 200, windowMs: 60_000, leaseMs: 120_000 });
 * if (result.granted) {
 *   try { await send(); } finally { await store.release(bucket, result.permitId, 60_000); }
 * }
 * ```
 */
export class MemoryPermitStore implements PermitStore {
  readonly #now: () => number;
  readonly #buckets = new Map<string, BucketState>();
  readonly #listeners = new ReleaseListeners();
  #issuedPermits = 0;

  constructor(options: MemoryPermitStoreOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** {@inheritDoc PermitStore.tryAcquire} */
  async tryAcquire(request: AcquireRequest): Promise<AcquireResult> {
    assertValidAcquireRequest(request);
    const now = this.#now();
    const state = this.#settledState(request.bucket, now, request.windowMs);
    if (state.pausedUntil > now) return { granted: false, retryAfterMs: state.pausedUntil - now, paused: true };

    const counted = state.inFlight.size + state.answered.size;
    if (counted < request.limit) {
      this.#issuedPermits += 1;
      const permitId = `permit-${this.#issuedPermits}`;
      state.inFlight.set(permitId, now + request.leaseMs);
      return { granted: true, permitId };
    }
    return { granted: false, retryAfterMs: nextChangeAt(state, counted - request.limit + 1) - now, paused: false };
  }

  /** {@inheritDoc PermitStore.release} */
  async release(bucket: string, permitId: string, windowMs: number): Promise<void> {
    const state = this.#buckets.get(bucket);
    if (state === undefined) return;
    const countedUntil = this.#now() + windowMs;
    if (state.inFlight.delete(permitId)) {
      state.answered.set(permitId, countedUntil);
      this.#listeners.notify(bucket);
      return;
    }
    // A response after the lease ended: the request may have reached the server up to now, so it
    // counts until a window after this answer, later than the lease's end would say.
    const leaseCountedUntil = state.answered.get(permitId);
    if (leaseCountedUntil !== undefined && leaseCountedUntil < countedUntil) state.answered.set(permitId, countedUntil);
  }

  /** {@inheritDoc PermitStore.pause} */
  async pause(bucket: string, untilMs: number): Promise<void> {
    const state = this.#state(bucket);
    state.pausedUntil = Math.max(state.pausedUntil, untilMs);
  }

  /** {@inheritDoc PermitStore.onRelease} */
  onRelease(bucket: string, listener: () => void): () => void {
    return this.#listeners.add(bucket, listener);
  }

  #state(bucket: string): BucketState {
    let state = this.#buckets.get(bucket);
    if (state === undefined) {
      state = { inFlight: new TimedSet(), answered: new TimedSet(), pausedUntil: 0 };
      this.#buckets.set(bucket, state);
    }
    return state;
  }

  /** The bucket as of `now`: ended leases turned into answered permits, expired counts dropped. */
  #settledState(bucket: string, now: number, windowMs: number): BucketState {
    const state = this.#state(bucket);
    for (const lease of state.inFlight.takeUntil(now)) state.answered.set(lease.id, lease.at + windowMs);
    state.answered.takeUntil(now);
    return state;
  }
}

/**
 * When a refused request should ask again: when the `needed`-th earliest answered permit stops
 * counting, or, when answered permits alone cannot free enough, when the earliest lease ends
 * (a release may come sooner; `onRelease` tells).
 */
function nextChangeAt(state: BucketState, needed: number): number {
  return state.answered.nthEarliest(needed) ?? state.inFlight.nthEarliest(1) ?? Number.POSITIVE_INFINITY;
}
