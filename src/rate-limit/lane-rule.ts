import type { AcquireRequest } from './permit-store.js';

/*
 * The arithmetic of the permit rule that is not plain counting: lanes, learnt budgets and shares.
 * The memory store calls these functions; the Redis store's Lua script applies the same arithmetic
 * (src/redis/permit-scripts.ts); one contract test suite holds both to it.
 */

/**
 * How long after its next attempt is due a refused interactive queue keeps its slot held against
 * background requests. Covers a late timer and a store round trip; a queue that stopped waiting
 * (its callers aborted, its process died) holds a slot no longer than this after it would have
 * been used.
 */
export const WAITER_HOLD_GRACE_MS = 1_000;

/**
 * Windows for which the largest number of interactive requests seen at once (asked within one
 * round trip: in flight together) is remembered. Bursts of interactive calls come far apart when
 * the traffic is light (a burst of 3 at 2% of a 20-request budget comes every 7.5 windows); the
 * slots kept free for the next one cost bulk work only while they are unused.
 */
export const BURST_MEMORY_WINDOWS = 8;

/**
 * Interactive calls made within this many milliseconds of each other are one burst (a
 * `Promise.all`, a page that asks for several things at once). Calls that queued up one by one
 * while the budget was full are demand, not a burst: released together, they would otherwise be
 * remembered as one and keep that many slots from bulk work for {@link BURST_MEMORY_WINDOWS}
 * windows (15 slots of 200, 8% of the budget, after interactive calls at 20% of the budget
 * started together with a bulk job).
 */
export const BURST_SPAN_MS = 10;

/**
 * Windows for which the most interactive requests in flight or waiting at once, however they came
 * (a queue that built up while calls waited, released together), keep that many slots free. After
 * interactive calls waited, those that follow come as densely for a while: forgotten at once, the
 * next window's calls waited again.
 */
export const QUEUE_MEMORY_WINDOWS = 2;

/** The limit a store applies to `request` when the bucket has learnt `learnt` from the server. */
export function appliedLimit(request: Pick<AcquireRequest, 'limit' | 'limitIsCeiling'>, learnt: number | undefined): number {
  if (learnt === undefined) return request.limit;
  return request.limitIsCeiling === true ? Math.min(request.limit, learnt) : learnt;
}

/**
 * The window a store applies to `request` when the bucket has learnt `learnt` from the server: a
 * configured window is a floor (a server may say its window is longer, never shorter), the
 * documented default is replaced either way.
 */
export function appliedWindow(request: Pick<AcquireRequest, 'windowMs' | 'windowIsFloor'>, learnt: number | undefined): number {
  if (learnt === undefined) return request.windowMs;
  return request.windowIsFloor === true ? Math.max(request.windowMs, learnt) : learnt;
}

/** `limit` scaled by the request's share; never below one request per window. */
export function sharedLimit(limit: number, share: number | undefined): number {
  if (share === undefined || share >= 1) return limit;
  return Math.max(1, Math.floor(limit * share));
}

/** What a store knows about the interactive traffic of a bucket when a background request asks. */
export interface InteractiveTraffic {
  /** Slots held for refused interactive queues (one per queue, until shortly after its next attempt). */
  holds: number;
  /** The most interactive requests counted at once within the last window (their own share of the budget). */
  peak: number;
  /** The most interactive requests in flight at once (two or more) within the last {@link BURST_MEMORY_WINDOWS} windows. */
  burst: number;
  /**
   * During the first window of a bulk job (a background burst that found no background request
   * counted), the part of that window still to come, in (0, 1]; 0 after it.
   */
  rampLeft: number;
}

/**
 * The room of a background request: it is granted while the requests counted (every lane) stay
 * below `total` and the background requests counted stay below `background`.
 *
 * - `reserve` slots (the client's `interactiveReserve`), or as many as the largest interactive burst
 *   seen lately, or one while interactive requests asked within the last window, stay free at all
 *   times, so an interactive call (or a burst) finds a slot at once, even the first one after a
 *   bulk job has filled the budget; and one more per held interactive queue (a queue refused now
 *   takes the next slot that frees, whichever process asks first).
 * - Background work keeps off the share the interactive traffic actually takes: the most
 *   interactive requests counted at once within the last window. So the slot an interactive
 *   request's count leaves when it ends goes to the next interactive request, however many there
 *   are per window, not to bulk work. The reserve is not added to that share: the slots kept free
 *   above already stand for it; added to both, it left `reserve` slots unused on top whenever
 *   interactive traffic was below its peak.
 *
 * - In the first window of a bulk job, background work takes the budget less `ramp` slots at once
 *   and those evenly across the window, on top of the interactive share: interactive calls made in
 *   that window keep the ramp slots they took. (With the larger of the two instead, bulk work took
 *   back each slot the ramp released as soon as the interactive share fell below what the ramp
 *   held, and at 20% of 200 per window, 15 interactive calls of the first window waited for the next.)
 *
 * None of these takes the last slot from background work (at most `limit - 1` is kept), unless held
 * queues are waiting for it.
 *
 * In batch mode (`batch`: a process that runs bulk work only, `interactiveReserve: 0`) none of them
 * applies: no reserve, no interactive share, no slots kept after interactive calls or bursts, no
 * ramp. Only held queues keep their slot, so an interactive call made anyway takes the next slot
 * that frees (up to a window) and costs bulk work nothing while nobody calls.
 */
export function backgroundRoom(limit: number, reserve: number, traffic: InteractiveTraffic, ramp: number, batch = false): { total: number; background: number } {
  if (batch) return { total: limit - traffic.holds, background: limit };
  const keptFree = Math.min(limit - 1, Math.max(reserve, traffic.burst, traffic.peak > 0 ? 1 : 0));
  const interactiveShare = Math.min(limit - 1, traffic.peak);
  return { total: limit - traffic.holds - keptFree, background: limit - Math.min(limit - 1, interactiveShare + rampHeld(limit, ramp, traffic.rampLeft)) };
}

/**
 * Windows after a bulk job's start within which background work that found none counted (after a
 * 429's pause, a lull) is the same job going on, not a new one: it gets no second ramp.
 */
export const RAMP_RESTART_WINDOWS = 2;

/** Slots the first window of a bulk job (ramping `ramp` slots) still holds back with `rampLeft` of it to come. */
export function rampHeld(limit: number, ramp: number, rampLeft: number): number {
  if (!(rampLeft > 0) || ramp <= 0) return 0;
  return Math.min(limit - 1, Math.ceil(ramp * Math.min(1, rampLeft)));
}

/** When the first window of a bulk job that ends at `rampEnd` lets background work have one slot more than the `held` it holds back now. */
export function nextRampStep(ramp: number, windowMs: number, rampEnd: number, held: number): number {
  return rampEnd - ((held - 1) * windowMs) / ramp;
}
