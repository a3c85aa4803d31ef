/** The Redis keys of one bucket. */
export interface PermitKeys {
  /** Sorted set of answered permits, scored by when they stop counting. */
  readonly answered: string;
  /** Sorted set of in-flight permits, scored by their lease end. */
  readonly inFlight: string;
  /** The end of the bucket's pause, in epoch ms. */
  readonly paused: string;
  /**
   * Sorted set of interactive demand: `present` scored by when interactive traffic stops counting
   * as present, `fresh` by when the first window of interactive traffic or of a background burst
   * ends, and `waiter:<id>` per refused interactive queue, scored by the end of its hold.
   */
  readonly interactive: string;
  /** The limit learnt from the server. */
  readonly learntLimit: string;
  /** Sorted set of background permits (in flight or answered), scored by when they stop counting. */
  readonly background: string;
  /** The generation of the bucket's data, `<random id>:<created epoch ms>`: another one means Redis lost the data. */
  readonly generation: string;
  /** Hash of the bucket's recovery after Redis lost its data: its end, and the permits each store held then. */
  readonly recovery: string;
}

/**
 * Names the keys of `bucket` (already a hash, never the API key). The bucket sits in a hash tag
 * (`{...}`) so that a Redis Cluster keeps a bucket's keys in one slot, as Lua scripts require.
 *
 * @example
 * ```ts
 * permitKeys('school-admin-sdk:', 'key-3f2a9c0d1b7e4a65:mutations').inFlight;
 * // 'school-admin-sdk:{key-3f2a9c0d1b7e4a65:mutations}:in-flight'
 * ```
 */
export function permitKeys(keyPrefix: string, bucket: string): PermitKeys {
  const base = `${keyPrefix}{${bucket}}`;
  return {
    answered: `${base}:answered`,
    inFlight: `${base}:in-flight`,
    paused: `${base}:paused-until`,
    interactive: `${base}:interactive`,
    learntLimit: `${base}:learnt-limit`,
    background: `${base}:background`,
    generation: `${base}:generation`,
    recovery: `${base}:recovery`,
  };
}
