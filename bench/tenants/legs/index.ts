import type { StoreLeg } from './leg.js';
import { memoryLeg } from './memory.js';

/**
 * The stores this harness runs in its cells, by name. The Redis legs (one redis-server and a
 * cluster, ioredis and node-redis) run in bench/tenants-redis.ts, which bench/tenants.ts hands them to.
 */
export const LEGS: Readonly<Record<string, StoreLeg>> = {
  [memoryLeg.name]: memoryLeg,
};
