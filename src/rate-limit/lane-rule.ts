import type { AcquireRequest } from './permit-store.js';

/*
 * The parts of the permit rule that depend on lanes and learnt limits, shared by the memory store
 * (the Redis store's Lua script applies the same arithmetic; the contract tests hold both to it).
 */

/**
 * How long after its next attempt is due a refused interactive queue keeps its slot held against
 * background requests. Covers a late timer and a store round trip; a queue that stopped waiting
 * (its callers aborted, its process died) holds a slot no longer than this after it would have
 * been used.
 */
export const WAITER_HOLD_GRACE_MS = 1_000;

/** The limit a store applies to `request` when the bucket has learnt `learnt` from the server. */
export function appliedLimit(request: Pick<AcquireRequest, 'limit' | 'limitIsCeiling'>, learnt: number | undefined): number {
  if (learnt === undefined) return request.limit;
  return request.limitIsCeiling === true ? Math.min(request.limit, learnt) : learnt;
}

/** `limit` scaled by the request's share; never below one request per window. */
export function sharedLimit(limit: number, share: number | undefined): number {
  if (share === undefined || share >= 1) return limit;
  return Math.max(1, Math.floor(limit * share));
}

/**
 * The room of a background request while interactive traffic is present (otherwise: the limit
 * less one slot per held interactive queue). Counted requests must stay below the limit less one
 * slot per held interactive queue and, with a reserve, less one more slot: the slot an interactive
 * call's count leaves is kept for the next one. During the first window of interactive traffic,
 * or of a burst of background work (`fresh`), counted background requests must also stay at most
 * `limit - reserve` (at most `limit - 1` is reserved): a bulk job fills the budget within a round
 * trip, and the interactive calls of that first window would otherwise wait for its slots to free.
 */
export function backgroundRoom(limit: number, reserve: number, presence: { present: boolean; fresh: boolean }, heldSlots: number): { total: number; background: number } {
  const reserved = presence.present ? Math.min(reserve, limit - 1) : 0;
  return { total: limit - heldSlots - (reserved > 0 ? 1 : 0), background: presence.fresh ? limit - reserved : Number.POSITIVE_INFINITY };
}
