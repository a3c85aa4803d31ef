/**
 * The Redis legs by name, apart from their modules (which load ioredis and node-redis), so that
 * bench/tenants.ts can tell them from its own legs and hand them to bench/tenants-redis.ts.
 * legs.ts has one leg per name (its type says so).
 */
export const REDIS_LEG_NAMES = ['ioredis', 'node-redis', 'ioredis-cluster', 'node-redis-cluster'] as const;

/** One of {@link REDIS_LEG_NAMES}. */
export type RedisLegName = (typeof REDIS_LEG_NAMES)[number];
