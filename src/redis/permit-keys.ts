/** The Redis keys of one bucket. */
export interface PermitKeys {
  /** Sorted set of answered permits, scored by their answer (they count a window more). */
  readonly answered: string;
  /** Sorted set of in-flight permits, scored by their lease end. */
  readonly inFlight: string;
  /** The end of the bucket's pause, in epoch ms. */
  readonly paused: string;
  /**
   * Sorted set of interactive demand: `waiter:<id>` per refused interactive queue, scored by the
   * end of its hold; `peak:<n>` and `burst:<n>`, scored by until when that many interactive
   * requests counted (or in flight and asking) at once is remembered.
   */
  readonly interactive: string;
  /** The limit learnt from the server. */
  readonly learntLimit: string;
  /** The window learnt from the server's answers. */
  readonly learntWindow: string;
  /** Sorted set of background permits (in flight or answered), scored by their latest possible answer. */
  readonly background: string;
  /** The generation of the bucket's data, `<random id>:<created epoch ms>`: another one means Redis lost the data. */
  readonly generation: string;
  /** Hash of the bucket's recovery after Redis lost its data: its end, and the permits each store held then. */
  readonly recovery: string;
  /** Sorted set of interactive permits (in flight or answered), scored by their latest possible answer. */
  readonly interactivePermits: string;
  /** Sorted set of the permits counted, scored by when they were granted. */
  readonly sent: string;
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
    learntWindow: `${base}:learnt-window`,
    background: `${base}:background`,
    generation: `${base}:generation`,
    recovery: `${base}:recovery`,
    interactivePermits: `${base}:interactive-permits`,
    sent: `${base}:sent`,
  };
}
