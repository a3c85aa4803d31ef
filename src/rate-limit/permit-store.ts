import type { Priority } from './priority.js';

/**
 * Where the permits of a rate-limit budget are counted. A budget (a "bucket") is one API key and
 * one operation type (`mutations` or `queries`), named by an opaque string that never contains the
 * key itself.
 *
 * The rule every store applies, safe against a server that counts arrivals in a sliding window of
 * `windowMs`: a new request may start only while the number of earlier requests that are still in
 * flight, or whose response came less than `windowMs` ago, is below `limit`. A request in flight
 * has arrived at the server at some unknown moment up to now, so it counts until `windowMs` after
 * its response, which is the latest moment its arrival can still be inside the server's window.
 *
 * Lanes (optional for a store; both stores of the SDK apply them, see `lane-rule.ts`): an
 * `interactive` request may take any free slot. A `background` request leaves free `reserve` slots,
 * or as many as the largest interactive burst seen lately, plus one per interactive queue that was
 * refused and is about to ask again; and it keeps off the share the interactive traffic actually
 * takes (the most interactive requests counted at once within the last window, plus `reserve`).
 * In the first window of a bulk job it takes `ramp` slots only gradually. So an interactive call overtakes queued background work in every client and process sharing the
 * store, and finds a slot at once, whatever the budget and however busy the interactive traffic.
 * A `batch` request keeps none of these: only the slots held for refused interactive queues.
 *
 * Budgets: a limit learnt from the server (`learnLimit`) applies to every client of the bucket. It
 * replaces a request's `limit`, unless `limitIsCeiling` (an explicitly configured limit), which it
 * may only lower. A window learnt from the server (`learnWindow`) replaces the request's
 * `windowMs`, unless `windowIsFloor` (an explicitly configured window), which it may only lengthen.
 * A learnt window applies at once to the requests already counted (a store keeps when each was
 * answered, not when its count ends).
 *
 * Memory: a store forgets a bucket once nothing in it counts any more (idle for its window, plus
 * the lease of any permit not released).
 *
 * Stores: {@link MemoryPermitStore} (one process) and the Redis store of `school-admin-sdk/redis`
 * (all processes sharing a key).
 */
export interface PermitStore {
  /**
   * Takes a permit when the rule allows it; never waits.
   * A permit not released within `leaseMs` is treated as answered at the lease's end, so a process
   * that dies while holding it cannot hold budget for longer than the lease (plus the window).
   */
  tryAcquire(request: AcquireRequest): Promise<AcquireResult>;
  /**
   * Optional: takes up to `count` permits at once, as `count` calls of `tryAcquire` made at the
   * same instant would (with `demand` one less after each permit), in one call: one round trip
   * for a store shared over the network, where a queue of waiting calls would otherwise ask once
   * per permit. Resolves with the permits granted (`granted: true`, in order; `counted` is each
   * one's own count) and, when none could be granted, with the one refusal instead. A store may
   * grant fewer than the rule allows (it bounds the work of one call): the caller asks again. A
   * store without it is asked once per permit.
   */
  tryAcquireMany?(request: AcquireRequest, count: number): Promise<AcquireResult[]>;
  /**
   * Marks the permit's request as answered now: it counts for the bucket's window more (the
   * request's `windowMs`, or the learnt window), then frees. `windowMs` is the caller's window, for
   * stores that do not keep one.
   */
  release(bucket: string, permitId: string, windowMs: number): Promise<void>;
  /**
   * Optional: the permit's request never left (the connection could not be made: refused, host
   * name not resolved), so the server cannot have counted it: the permit stops counting now, as
   * if it had never been granted, and `onRelease` listeners are told (`givenBack: true`). Only for
   * a request that surely never reached the server; one that may have arrived is `release`d. A
   * permit no longer in flight (unknown, or released) is left as it is. A store without it gets
   * `release` instead: the request then counts for a window after the failure.
   */
  giveBack?(bucket: string, permitId: string): Promise<void>;
  /**
   * Stops every client of the bucket from starting requests until `untilMs` (epoch milliseconds),
   * after a 429. A pause never shortens an existing longer pause.
   */
  pause(bucket: string, untilMs: number): Promise<void>;
  /**
   * Optional: records the limit the server stated (`X-RateLimit-Limit`, `extensions.limit`) for
   * every client of the bucket, kept at least `keepMs` and as long as the bucket is in use.
   */
  learnLimit?(bucket: string, limit: number, keepMs: number): Promise<void>;
  /**
   * Optional: records the sliding window the server's answers revealed (a 429's reset time against
   * the times the client sent its requests) for every client of the bucket, kept at least `keepMs`
   * and as long as the bucket is in use. A store without it leaves each client with the window it
   * learnt itself.
   */
  learnWindow?(bucket: string, windowMs: number, keepMs: number): Promise<void>;
  /**
   * Optional: counts requests that an earlier process sent on the bucket and that this store never
   * granted (a job killed part-way and resumed: its journal lists them), as if they had been
   * granted at `sentAt` and answered at `answeredAt`: each counts until a window after its answer,
   * like the store's own (the bucket's window, `windowMs` until it knows one). Memory only: a store
   * shared by processes (Redis) granted those requests itself and counts them already, so it leaves
   * this out and nothing is counted twice. A store without it starts a resumed job with the whole
   * budget, which the server may still be counting.
   */
  seed?(bucket: string, sends: readonly EarlierSend[], windowMs: number): Promise<void>;
  /**
   * Optional: calls `listener` when a permit of `bucket` may have become free sooner than a
   * previous `tryAcquire` answered (a release or a permit given back in this process), with
   * `givenBack: true` for a permit given back (its slot is free now). Returns an unsubscribe function.
   */
  onRelease?(bucket: string, listener: (givenBack?: boolean) => void): () => void;
}

/** A request sent by an earlier process, for {@link PermitStore.seed} (epoch milliseconds). */
export interface EarlierSend {
  /** When its permit was granted (the request sent). */
  sentAt: number;
  /** When it was answered, or the latest it can have reached the server when that is unknown. */
  answeredAt: number;
}

/** What {@link PermitStore.tryAcquire} needs to decide. */
export interface AcquireRequest {
  /** The budget's name: a hash of the API key and the operation type. */
  bucket: string;
  /** Maximum requests in any window. */
  limit: number;
  /** The server's sliding window, in milliseconds. */
  windowMs: number;
  /** How long a permit may stay unreleased before it is treated as answered. */
  leaseMs: number;
  /**
   * The lane that asks (see {@link PermitStore}).
   * @default 'interactive'
   */
  lane?: Priority;
  /**
   * Background requests only: slots left free for interactive requests at all times (see
   * {@link PermitStore}; at most `limit - 1`).
   * @default 0
   */
  reserve?: number;
  /**
   * Background requests only: in the first window of a bulk job (a background request that finds
   * none counted starts one), this many slots are handed out evenly across the window instead of
   * at once, so interactive calls that start in that window find them (at most `limit - 1`).
   * @default 0
   */
  ramp?: number;
  /**
   * Background requests only: batch mode, for a process that runs bulk work only (the client's
   * `interactiveReserve: 0`): nothing is kept free for interactive traffic (`reserve` and `ramp`
   * are not applied, nor the interactive share or the slots kept after interactive calls and
   * bursts); a refused interactive queue still holds the next slot that frees.
   * @default false
   */
  batch?: boolean;
  /**
   * Interactive requests only: how many calls wait in the asking queue, this one included (a burst
   * of calls asks once for its head). Counted in the interactive share.
   * @default 1
   */
  demand?: number;
  /**
   * Interactive requests only: how many calls were made at once (within `BURST_SPAN_MS` of each
   * other) among those asking now, this one included. The store remembers the largest burst for
   * `BURST_MEMORY_WINDOWS` windows to keep room for the next one. Calls that queued up one by one
   * while they waited are not a burst.
   * @default the interactive requests in flight plus `demand` (a caller that does not tell)
   */
  burst?: number;
  /**
   * Interactive requests only: names the queue that asks. When refused, the store holds one slot
   * for it against background requests until shortly after its next attempt is due.
   * @default none (nothing is held)
   */
  waiter?: string;
  /**
   * True when `limit` was configured explicitly: a learnt limit may lower it but never raise it.
   * False: a learnt limit replaces it (the documented default may be raised, for self-hosted
   * deployments).
   * @default false
   */
  limitIsCeiling?: boolean;
  /**
   * True when `windowMs` was configured explicitly: a learnt window may lengthen it but never
   * shorten it. False: a learnt window replaces it (the documented default, for self-hosted
   * deployments).
   * @default false
   */
  windowIsFloor?: boolean;
  /**
   * The fraction of the limit to use, in (0, 1], after 429s caused by traffic outside the SDK;
   * at least one request per window is always allowed.
   * @default 1
   */
  share?: number;
}

/** The answer of {@link PermitStore.tryAcquire}. */
export type AcquireResult =
  | {
      /** A permit was taken: the request may go. */
      granted: true;
      /** Pass it to {@link PermitStore.release} when the response arrives. */
      permitId: string;
      /** The limit the store applied (after a learnt limit), when it says. */
      limit?: number;
      /** The window the store applied (after a learnt window), when it says. */
      windowMs?: number;
      /**
       * Requests the bucket counts with this one (every client sharing the store), when the store
       * says. After a 429 from traffic outside the SDK, the limiter takes what got through as the
       * room that traffic leaves; a store that does not say gets the halving share instead.
       */
      counted?: number;
      /**
       * How long ago the oldest request the bucket counts (this one included) was sent, when the
       * store says: a 429's reset time against it tells the server's window.
       */
      oldestSentAgoMs?: number;
    }
  | {
      /** No permit now: wait `retryAfterMs` and ask again. */
      granted: false;
      /**
       * Milliseconds after which a new attempt can succeed (when the oldest counted request frees
       * or a pause ends). When only in-flight requests hold the budget, this is the time until
       * the earliest lease ends; a release may free a permit sooner (see `onRelease`).
       */
      retryAfterMs: number;
      /** True when the bucket is paused after a 429. */
      paused: boolean;
      /** The limit the store applied (after a learnt limit), when it says. */
      limit?: number;
      /** The window the store applied (after a learnt window), when it says. */
      windowMs?: number;
    };
