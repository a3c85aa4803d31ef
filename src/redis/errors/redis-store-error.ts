import { AdminApiError, type AdminApiErrorOptions } from '../../errors/admin-api-error.js';

/** Fields of a {@link RedisStoreError}. */
export interface RedisStoreErrorOptions extends AdminApiErrorOptions {
  /** The Redis error code the store could not work past: `'READONLY'`, `'TRYAGAIN'`, `'CLUSTERDOWN'`, `'MOVED'` or `'ASK'`. */
  redisCode: string;
}

/**
 * Redis answered a permit script with an error the store cannot work past, so the call that needed
 * the permit was not sent:
 * - `READONLY`: the client is connected to a read-only replica (a standalone client pointed at a
 *   node that a failover demoted, or at a replica). Point it at the master, or pass an ioredis
 *   `Cluster` / node-redis `createCluster()` client, which follows failovers.
 * - `TRYAGAIN`, `CLUSTERDOWN`: the bucket's slot was being moved (resharding) or the cluster had
 *   no master for it, for longer than the store retries (up to 30 s, 100 ms doubling to 1 s).
 * - `MOVED`, `ASK`: a standalone client was sent to another node of a Redis Cluster: pass a
 *   cluster client instead.
 *
 * @example
 * ```ts
 * try {
 *   await admin.updateCoupon(couponId, input);
 * } catch (error) {
 *   if (error instanceof RedisStoreError && error.redisCode === 'READONLY') alertOps('Redis client points at a replica');
 * }
 * ```
 */
export class RedisStoreError extends AdminApiError {
  override name = 'RedisStoreError';
  /** The Redis error code (the first word of Redis's error reply). */
  readonly redisCode: string;

  constructor(message: string, options: RedisStoreErrorOptions) {
    super(message, options);
    this.redisCode = options.redisCode;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { redisCode: this.redisCode };
  }
}
