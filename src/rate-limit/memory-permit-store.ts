import { assertValidAcquireRequest } from './acquire-request-checks.js';
import { appliedLimit, backgroundRoom, sharedLimit, WAITER_HOLD_GRACE_MS } from './lane-rule.js';
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
  /** Background permits (in flight or answered), timed by the latest end of their count. */
  readonly background: TimedSet;
  /** Epoch ms before which the bucket is paused; 0 when it never was. */
  pausedUntil: number;
  /** The limit the server stated, for every client of the bucket. */
  learntLimit: number | undefined;
  /** Epoch ms until which the learnt limit is kept (extended while the bucket grants permits). */
  learntUntil: number;
  /** The window of the latest request (windows travel with requests), to settle leases when idle. */
  windowMs: number;
  /** Epoch ms until which interactive traffic counts as present (it asked within the window). */
  interactiveUntil: number;
  /** Epoch ms until which the first window of interactive traffic or of a background burst lasts. */
  freshUntil: number;
  /** Refused interactive queues: waiter id -> epoch ms until which a slot is held for it. */
  held: Map<string, number> | undefined;
}

/** Buckets looked at for idleness per `tryAcquire`: enough to keep up with any rate of new keys. */
const IDLE_CHECKS_PER_CALL = 2;

/**
 * The {@link PermitStore} of a single process: exact, in memory, O(log n) per call.
 *
 * Every request counts from the moment its permit is granted until `windowMs` after its response
 * (`release`); a permit not released within `leaseMs` counts as answered at its lease's end; a
 * permit given back (`giveBack`: its request never left) stops counting at once.
 * Lanes, learnt limits and shares apply as {@link PermitStore} describes. A bucket is forgotten once
 * it holds nothing (checked a couple of buckets per call, so no timer keeps the process alive and
 * memory follows the keys in use, not every key ever seen).
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

  /** How many buckets the store holds (for memory checks: idle ones are forgotten). */
  get bucketCount(): number {
    return this.#buckets.size;
  }

  /** {@inheritDoc PermitStore.tryAcquire} */
  async tryAcquire(request: AcquireRequest): Promise<AcquireResult> {
    assertValidAcquireRequest(request);
    const now = this.#now();
    this.#forgetIdle(now);
    const state = this.#settledState(request.bucket, now, request.windowMs);
    const applied = appliedLimit(request, state.learntLimit);
    const interactive = request.lane !== 'background';
    if (interactive) noteInteractive(state, now, request.windowMs);
    const paused = state.pausedUntil > now;
    const retryAt = paused ? state.pausedUntil : refusedUntil(state, request, sharedLimit(applied, request.share), now);
    if (retryAt === undefined) {
      const permitId = this.#grant(state, request, now);
      return { granted: true, permitId, limit: applied, counted: state.inFlight.size + state.answered.size };
    }
    const retryAfterMs = retryAt - now;
    if (interactive && request.waiter !== undefined) hold(state, request.waiter, now + Math.min(retryAfterMs, request.windowMs) + WAITER_HOLD_GRACE_MS);
    return { granted: false, retryAfterMs, paused, limit: applied };
  }

  /** {@inheritDoc PermitStore.release} */
  async release(bucket: string, permitId: string, windowMs: number): Promise<void> {
    const state = this.#buckets.get(bucket);
    if (state === undefined) return;
    const countedUntil = this.#now() + windowMs;
    if (state.inFlight.delete(permitId)) {
      state.answered.set(permitId, countedUntil);
      if (state.background.get(permitId) !== undefined) state.background.set(permitId, countedUntil);
      this.#listeners.notify(bucket);
      return;
    }
    // A response after the lease ended: the request may have reached the server up to now, so it
    // counts until a window after this answer, later than the lease's end would say.
    const leaseCountedUntil = state.answered.get(permitId);
    if (leaseCountedUntil !== undefined && leaseCountedUntil < countedUntil) {
      state.answered.set(permitId, countedUntil);
      if (state.background.get(permitId) !== undefined) state.background.set(permitId, countedUntil);
    }
  }

  /** {@inheritDoc PermitStore.giveBack} */
  async giveBack(bucket: string, permitId: string): Promise<void> {
    const state = this.#buckets.get(bucket);
    if (state === undefined || !state.inFlight.delete(permitId)) return;
    state.background.delete(permitId);
    this.#listeners.notify(bucket, true);
  }

  /** {@inheritDoc PermitStore.pause} */
  async pause(bucket: string, untilMs: number): Promise<void> {
    if (!(untilMs > this.#now())) return;
    const state = this.#state(bucket);
    state.pausedUntil = Math.max(state.pausedUntil, untilMs);
  }

  /** {@inheritDoc PermitStore.learnLimit} */
  async learnLimit(bucket: string, limit: number, keepMs: number): Promise<void> {
    if (!(Number.isSafeInteger(limit) && limit >= 1)) throw new RangeError(`Failed to record the learnt limit: it must be a positive integer, got ${String(limit)}. Pass the server's stated limit.`);
    const state = this.#state(bucket);
    state.learntLimit = limit;
    state.learntUntil = Math.max(state.learntUntil, this.#now() + keepMs);
  }

  /** {@inheritDoc PermitStore.onRelease} */
  onRelease(bucket: string, listener: (givenBack?: boolean) => void): () => void {
    return this.#listeners.add(bucket, listener);
  }

  #grant(state: BucketState, request: AcquireRequest, now: number): string {
    this.#issuedPermits += 1;
    const permitId = `permit-${this.#issuedPermits}`;
    const countsUntil = now + request.leaseMs + request.windowMs;
    state.inFlight.set(permitId, now + request.leaseMs);
    if (request.lane === 'background') {
      // The first permit of a background burst opens its first window.
      if (state.background.size === 0) state.freshUntil = Math.max(state.freshUntil, now + request.windowMs);
      state.background.set(permitId, countsUntil);
    } else if (request.waiter !== undefined) {
      state.held?.delete(request.waiter);
    }
    if (state.learntLimit !== undefined) state.learntUntil = Math.max(state.learntUntil, countsUntil);
    return permitId;
  }

  #state(bucket: string): BucketState {
    let state = this.#buckets.get(bucket);
    if (state === undefined) {
      state = { inFlight: new TimedSet(), answered: new TimedSet(), background: new TimedSet(), pausedUntil: 0, learntLimit: undefined, learntUntil: 0, windowMs: 0, interactiveUntil: 0, freshUntil: 0, held: undefined };
      this.#buckets.set(bucket, state);
    }
    return state;
  }

  /** The bucket as of `now`: ended leases turned into answered permits, expired counts dropped. */
  #settledState(bucket: string, now: number, windowMs: number): BucketState {
    const state = this.#state(bucket);
    state.windowMs = windowMs;
    settle(state, now);
    if (state.learntUntil <= now) state.learntLimit = undefined;
    return state;
  }

  /**
   * Forgets buckets that hold nothing any more. Each call looks at the oldest entries of the map
   * and moves those still in use to its end, so every bucket is looked at again after a round
   * through the others, and an idle one is gone within about `buckets / 2` calls. A release
   * arriving for a forgotten bucket finds nothing: its count had ended.
   */
  #forgetIdle(now: number): void {
    for (let checked = 0; checked < IDLE_CHECKS_PER_CALL && this.#buckets.size > 0; checked += 1) {
      const [bucket, state] = this.#buckets.entries().next().value as [string, BucketState];
      if (holdsNothing(state, now)) {
        this.#buckets.delete(bucket);
      } else {
        if (this.#buckets.size === 1) return;
        this.#buckets.delete(bucket);
        this.#buckets.set(bucket, state);
      }
    }
  }
}

/** Turns ended leases into answered permits and drops counts that ended. */
function settle(state: BucketState, now: number): void {
  for (const lease of state.inFlight.takeUntil(now)) state.answered.set(lease.id, lease.at + state.windowMs);
  state.answered.takeUntil(now);
  state.background.takeUntil(now);
}

/** True when nothing in the bucket counts or waits any more: forgetting it changes no answer. */
function holdsNothing(state: BucketState, now: number): boolean {
  settle(state, now);
  return (
    state.inFlight.size === 0 &&
    state.answered.size === 0 &&
    state.pausedUntil <= now &&
    state.interactiveUntil <= now &&
    state.freshUntil <= now &&
    state.learntUntil <= now &&
    liveHolds(state, now) === 0
  );
}

/** An interactive request asked: traffic is present for a window; if it was not, a first window opens. */
function noteInteractive(state: BucketState, now: number, windowMs: number): void {
  if (state.interactiveUntil <= now) state.freshUntil = Math.max(state.freshUntil, now + windowMs);
  extendPresence(state, now + windowMs);
}

/**
 * When a request the bucket has no room for should ask again, or undefined when there is room:
 * when enough counted requests (and, for background, enough background ones) have left;
 * background also when a hold, the presence or a first window ends.
 */
function refusedUntil(state: BucketState, request: AcquireRequest, limit: number, now: number): number | undefined {
  const counted = state.inFlight.size + state.answered.size;
  if (request.lane !== 'background') return counted < limit ? undefined : nextChangeAt(state, counted - limit + 1);
  const background = state.background.size;
  const present = state.interactiveUntil > now;
  const fresh = present && (state.freshUntil > now || background === 0);
  const room = backgroundRoom(limit, request.reserve ?? 0, { present, fresh }, liveHolds(state, now));
  if (counted < room.total && background < room.background) return undefined;
  let retryAt = counted < room.total ? now : nextChangeAt(state, counted - room.total + 1);
  if (background >= room.background) retryAt = Math.max(retryAt, state.background.nthEarliest(background - room.background + 1) ?? Number.POSITIVE_INFINITY);
  retryAt = Math.min(retryAt, earliestHoldEnd(state, now));
  return Number.isFinite(retryAt) && retryAt > now ? retryAt : now + request.windowMs;
}

function extendPresence(state: BucketState, until: number): void {
  state.interactiveUntil = Math.max(state.interactiveUntil, until);
}

function hold(state: BucketState, waiter: string, until: number): void {
  state.held ??= new Map();
  state.held.set(waiter, until);
  // Interactive traffic stays present while a refused queue waits.
  extendPresence(state, until);
}

/** Drops ended holds; returns how many are left. */
function liveHolds(state: BucketState, now: number): number {
  if (state.held === undefined) return 0;
  for (const [waiter, until] of state.held) if (until <= now) state.held.delete(waiter);
  if (state.held.size === 0) state.held = undefined;
  return state.held?.size ?? 0;
}

/** The earliest moment a hold, the interactive presence or a first window ends (what may let background through). */
function earliestHoldEnd(state: BucketState, now: number): number {
  let earliest = state.interactiveUntil > now ? state.interactiveUntil : Number.POSITIVE_INFINITY;
  if (state.freshUntil > now) earliest = Math.min(earliest, state.freshUntil);
  for (const until of state.held?.values() ?? []) earliest = Math.min(earliest, until);
  return earliest;
}

/**
 * When a refused request should ask again: when the `needed`-th earliest answered permit stops
 * counting, or, when answered permits alone cannot free enough, when the earliest lease ends
 * (a release may come sooner; `onRelease` tells).
 */
function nextChangeAt(state: BucketState, needed: number): number {
  return state.answered.nthEarliest(needed) ?? state.inFlight.nthEarliest(1) ?? Number.POSITIVE_INFINITY;
}
