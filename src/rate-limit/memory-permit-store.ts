import { assertValidAcquireRequest, assertValidPermitCount } from './acquire-request-checks.js';
import { CountedPermits } from './counted-permits.js';
import { appliedLimit, appliedWindow, backgroundRoom, BURST_MEMORY_WINDOWS, nextRampStep, QUEUE_MEMORY_WINDOWS, RAMP_RESTART_WINDOWS, rampHeld, sharedLimit, WAITER_HOLD_GRACE_MS } from './lane-rule.js';
import { LevelMemory } from './level-memory.js';
import type { AcquireRequest, AcquireResult, EarlierSend, PermitStore } from './permit-store.js';
import { ReleaseListeners } from './release-listeners.js';

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
  /**
   * The permits counted: in flight (until their lease end) and answered (until a window after
   * their answer), with when each was sent and its lane.
   */
  readonly permits: CountedPermits;
  /** Tells this bucket's permit ids from those of a bucket of the same name forgotten before. */
  readonly incarnation: number;
  /** The most interactive permits counted at once, remembered for a window. */
  readonly interactivePeaks: LevelMemory;
  /** The most interactive calls made at once, remembered for BURST_MEMORY_WINDOWS windows; in flight or asking at once, for QUEUE_MEMORY_WINDOWS. */
  readonly interactiveBursts: LevelMemory;
  /** Epoch ms when the latest bulk job (background burst) began: its first window is ramped. */
  rampStartedAt: number;
  /** Epoch ms before which the bucket is paused; 0 when it never was. */
  pausedUntil: number;
  /** The limit the server stated, for every client of the bucket. */
  learntLimit: number | undefined;
  /** Epoch ms until which the learnt limit is kept (extended while the bucket grants permits). */
  learntUntil: number;
  /** The window the server's answers revealed, for every client of the bucket. */
  learntWindow: number | undefined;
  /** Epoch ms until which the learnt window is kept (extended while the bucket grants permits). */
  learntWindowUntil: number;
  /** The window applied at the latest request (windows travel with requests), to settle counts when idle. */
  windowMs: number;
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
  /** Buckets created so far: each one's permit ids carry its number. */
  #incarnations = 0;

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
    return this.#acquire(request, now);
  }

  /** {@inheritDoc PermitStore.tryAcquireMany} */
  async tryAcquireMany(request: AcquireRequest, count: number): Promise<AcquireResult[]> {
    assertValidAcquireRequest(request);
    assertValidPermitCount(count);
    const now = this.#now();
    this.#forgetIdle(now);
    const results: AcquireResult[] = [];
    const demand = request.demand ?? 1;
    for (let index = 0; index < count; index += 1) {
      // As the queue would ask next: the call just served no longer waits.
      const result = this.#acquire(index === 0 ? request : { ...request, demand: Math.max(1, demand - index) }, now);
      if (result.granted || index === 0) results.push(result);
      if (!result.granted) break;
    }
    return results;
  }

  #acquire(request: AcquireRequest, now: number): AcquireResult {
    const state = this.#state(request.bucket);
    if (state.learntUntil <= now) state.learntLimit = undefined;
    if (state.learntWindowUntil <= now) state.learntWindow = undefined;
    const limit = appliedLimit(request, state.learntLimit);
    const windowMs = appliedWindow(request, state.learntWindow);
    state.windowMs = windowMs;
    settle(state, now);
    const interactive = request.lane !== 'background';
    const { permits } = state;
    if (interactive) {
      // What interactive traffic asks for: its requests in flight or counted, and the calls waiting now.
      const demand = request.demand ?? 1;
      // A burst (two or more made at once) is remembered for a while; a single call's share, for a window.
      const atOnce = permits.interactiveInFlight + demand;
      const burst = request.burst ?? atOnce;
      if (burst >= 2) state.interactiveBursts.record(burst, now + BURST_MEMORY_WINDOWS * windowMs);
      if (atOnce >= 2) state.interactiveBursts.record(atOnce, now + QUEUE_MEMORY_WINDOWS * windowMs);
      state.interactivePeaks.record(permits.interactive + demand, now + windowMs);
    }
    const paused = state.pausedUntil > now;
    const retryAt = paused ? state.pausedUntil : refusedUntil(state, request, sharedLimit(limit, request.share), now);
    if (retryAt === undefined) {
      const permitId = this.#grant(state, request, now);
      return { granted: true, permitId, limit, windowMs, counted: permits.counted, oldestSentAgoMs: now - (permits.oldestSent() ?? now) };
    }
    const retryAfterMs = retryAt - now;
    if (interactive && request.waiter !== undefined) hold(state, request.waiter, now + Math.min(retryAfterMs, windowMs) + WAITER_HOLD_GRACE_MS);
    return { granted: false, retryAfterMs, paused, limit, windowMs };
  }

  /** {@inheritDoc PermitStore.release} */
  async release(bucket: string, permitId: string, _windowMs?: number): Promise<void> {
    const state = this.#buckets.get(bucket);
    if (state === undefined) return;
    const seq = permitSeq(permitId, state.incarnation);
    if (seq < 0) return;
    const now = this.#now();
    if (state.permits.answer(seq, now)) {
      this.#listeners.notify(bucket);
      return;
    }
    // A response after the lease ended: the request may have reached the server up to now, so it
    // counts until a window after this answer, later than the lease's end would say.
    state.permits.answerAgain(seq, now);
  }

  /** {@inheritDoc PermitStore.giveBack} */
  async giveBack(bucket: string, permitId: string): Promise<void> {
    const state = this.#buckets.get(bucket);
    if (state === undefined || !state.permits.giveBack(permitSeq(permitId, state.incarnation))) return;
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

  /** {@inheritDoc PermitStore.learnWindow} */
  async learnWindow(bucket: string, windowMs: number, keepMs: number): Promise<void> {
    if (!(Number.isSafeInteger(windowMs) && windowMs >= 1)) throw new RangeError(`Failed to record the learnt window: it must be a positive whole number of milliseconds, got ${String(windowMs)}. Pass the window the server's answers revealed.`);
    const state = this.#state(bucket);
    state.learntWindow = windowMs;
    state.learntWindowUntil = Math.max(state.learntWindowUntil, this.#now() + keepMs);
  }

  /** {@inheritDoc PermitStore.seed} */
  async seed(bucket: string, sends: readonly EarlierSend[], windowMs: number): Promise<void> {
    // NaN times would count forever or never: refuse them before any is counted.
    if (!(Array.isArray(sends) && sends.every((send) => Number.isFinite(send?.sentAt) && Number.isFinite(send.answeredAt)) && windowMs >= 1))
      throw new RangeError('Failed to seed earlier sends: pass [{ sentAt, answeredAt }] in epoch ms and a positive windowMs.');
    const state = this.#state(bucket);
    state.windowMs ||= windowMs;
    // Bulk work's sends: they count in the background lane too, and a resumed job is not ramped again.
    // Each counts as a background permit sent at `sentAt` and answered at `answeredAt` (in any order).
    for (const { sentAt, answeredAt } of sends) state.permits.answer(state.permits.grant(sentAt, answeredAt, true), answeredAt);
  }

  /** {@inheritDoc PermitStore.onRelease} */
  onRelease(bucket: string, listener: (givenBack?: boolean) => void): () => void {
    return this.#listeners.add(bucket, listener);
  }

  #grant(state: BucketState, request: AcquireRequest, now: number): string {
    const leaseEnd = now + request.leaseMs;
    const background = request.lane === 'background';
    if (background) {
      // The first permit of a background burst opens its first window.
      if (startsBulkJob(state, now)) state.rampStartedAt = now;
    } else if (request.waiter !== undefined) {
      state.held?.delete(request.waiter);
    }
    const seq = state.permits.grant(now, leaseEnd, background);
    const countsUntil = leaseEnd + state.windowMs;
    if (state.learntLimit !== undefined) state.learntUntil = Math.max(state.learntUntil, countsUntil);
    if (state.learntWindow !== undefined) state.learntWindowUntil = Math.max(state.learntWindowUntil, countsUntil);
    // The bucket's number, then the permit's within it: no counter shared with other buckets, and
    // no id repeats after the bucket is forgotten and made again.
    return `${state.incarnation}.${seq}`;
  }

  #state(bucket: string): BucketState {
    let state = this.#buckets.get(bucket);
    if (state === undefined) {
      this.#incarnations += 1;
      state = {
        permits: new CountedPermits(),
        incarnation: this.#incarnations,
        interactivePeaks: new LevelMemory(),
        interactiveBursts: new LevelMemory(),
        rampStartedAt: Number.NEGATIVE_INFINITY,
        pausedUntil: 0,
        learntLimit: undefined,
        learntUntil: 0,
        learntWindow: undefined,
        learntWindowUntil: 0,
        windowMs: 0,
        held: undefined,
      };
      this.#buckets.set(bucket, state);
    }
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

/**
 * The sequence number of a permit id this bucket (`incarnation`) issued, `<incarnation>.<seq>`;
 * -1 for any other string (another bucket's, a forgotten one's, not a permit id at all). Read
 * digit by digit: no string is made per release.
 */
function permitSeq(permitId: string, incarnation: number): number {
  if (typeof permitId !== 'string') return -1;
  const dot = permitId.indexOf('.');
  if (dot < 1 || dot === permitId.length - 1 || digitsValue(permitId, 0, dot) !== incarnation) return -1;
  return digitsValue(permitId, dot + 1, permitId.length);
}

/** The value of the decimal digits `text[start..end)`, or -1 when one is not a digit. */
function digitsValue(text: string, start: number, end: number): number {
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/** Turns ended leases into answered permits (answered at their lease's end) and drops counts that ended. */
function settle(state: BucketState, now: number): void {
  state.permits.settle(now, state.windowMs);
}

/** True when nothing in the bucket counts or waits any more: forgetting it changes no answer that matters. */
function holdsNothing(state: BucketState, now: number): boolean {
  settle(state, now);
  return (
    state.permits.counted === 0 &&
    state.pausedUntil <= now &&
    state.learntUntil <= now &&
    state.learntWindowUntil <= now &&
    now - state.rampStartedAt >= RAMP_RESTART_WINDOWS * state.windowMs &&
    liveHolds(state, now) === 0
  );
}

/**
 * When a request the bucket has no room for should ask again, or undefined when there is room:
 * when enough counted requests (and, for background, enough background ones) have left;
 * background also when a hold or a remembered interactive level ends.
 */
function refusedUntil(state: BucketState, request: AcquireRequest, limit: number, now: number): number | undefined {
  const { permits } = state;
  const counted = permits.counted;
  if (request.lane !== 'background') return counted < limit ? undefined : nextChangeAt(state, counted - limit + 1);
  const background = permits.background;
  const reserve = request.reserve ?? 0;
  // A burst that finds no background request counted starts a new first window.
  const rampStart = startsBulkJob(state, now) ? now : state.rampStartedAt;
  const rampLeft = Math.max(0, rampStart + state.windowMs - now) / state.windowMs;
  const batch = request.batch === true;
  const ramp = batch ? 0 : (request.ramp ?? 0);
  const room = backgroundRoom(
    limit,
    reserve,
    { holds: liveHolds(state, now), peak: Math.max(state.interactivePeaks.max(now), permits.interactive), burst: state.interactiveBursts.max(now), rampLeft },
    ramp,
    batch,
  );
  if (counted < room.total && background < room.background) return undefined;
  let retryAt = counted < room.total ? now : nextChangeAt(state, counted - room.total + 1);
  if (background >= room.background) {
    const frees = permits.nthEarliestBackground(background - room.background + 1);
    retryAt = Math.max(retryAt, frees === undefined ? Number.POSITIVE_INFINITY : frees + state.windowMs);
  }
  let relief = earliestRelief(state, now);
  const held = rampHeld(limit, ramp, rampLeft);
  if (held > 0) relief = Math.min(relief, nextRampStep(ramp, state.windowMs, rampStart + state.windowMs, held));
  retryAt = Math.min(retryAt, relief);
  if (!Number.isFinite(retryAt)) return now + state.windowMs;
  // A relief due now (a ramp step computed at this very millisecond) means ask again at once: read
  // as "no answer", it cost the bulk job a whole window's wait.
  return Math.max(now + 1, Math.ceil(retryAt));
}

/** True when a background permit granted now would start a new bulk job (its first window ramped). */
function startsBulkJob(state: BucketState, now: number): boolean {
  return state.permits.background === 0 && now - state.rampStartedAt >= RAMP_RESTART_WINDOWS * state.windowMs;
}

function hold(state: BucketState, waiter: string, until: number): void {
  state.held ??= new Map();
  state.held.set(waiter, until);
}

/** Drops ended holds; returns how many are left. */
function liveHolds(state: BucketState, now: number): number {
  if (state.held === undefined) return 0;
  for (const [waiter, until] of state.held) if (until <= now) state.held.delete(waiter);
  if (state.held.size === 0) state.held = undefined;
  return state.held?.size ?? 0;
}

/** The earliest moment a hold or a remembered interactive level ends (what may let background through). */
function earliestRelief(state: BucketState, now: number): number {
  let earliest = Math.min(state.interactivePeaks.nextExpiry(now), state.interactiveBursts.nextExpiry(now));
  for (const until of state.held?.values() ?? []) earliest = Math.min(earliest, until);
  return earliest;
}

/**
 * When a refused request should ask again: when the `needed`-th earliest answered permit stops
 * counting, or, when answered permits alone cannot free enough, when the earliest lease ends
 * (a release may come sooner; `onRelease` tells).
 */
function nextChangeAt(state: BucketState, needed: number): number {
  const answeredAt = state.permits.nthEarliestAnswer(needed);
  if (answeredAt !== undefined) return answeredAt + state.windowMs;
  return state.permits.earliestLeaseEnd() ?? Number.POSITIVE_INFINITY;
}
