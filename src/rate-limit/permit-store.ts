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
  /** Marks the permit's request as answered now: it counts for `windowMs` more, then frees. */
  release(bucket: string, permitId: string, windowMs: number): Promise<void>;
  /**
   * Stops every client of the bucket from starting requests until `untilMs` (epoch milliseconds),
   * after a 429. A pause never shortens an existing longer pause.
   */
  pause(bucket: string, untilMs: number): Promise<void>;
  /**
   * Optional: calls `listener` when a permit of `bucket` may have become free sooner than a
   * previous `tryAcquire` answered (a release in this process). Returns an unsubscribe function.
   */
  onRelease?(bucket: string, listener: () => void): () => void;
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
}

/** The answer of {@link PermitStore.tryAcquire}. */
export type AcquireResult =
  | {
      /** A permit was taken: the request may go. */
      granted: true;
      /** Pass it to {@link PermitStore.release} when the response arrives. */
      permitId: string;
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
    };
