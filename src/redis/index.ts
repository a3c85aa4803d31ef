/**
 * `school-admin-sdk/redis`: the rate-limit permit store shared through Redis, so that every
 * process and machine using one API key stays under the key's limits together.
 *
 * Pass the store as the client's `limits.store`:
 *
 * @example
 * ```ts
 * import { AdminClient } from 'school-admin-sdk';
 * import { createRedisPermitStore } from 'school-admin-sdk/redis';
 *
 * const store = createRedisPermitStore(process.env.REDIS_URL!);
 * const admin = new AdminClient({ apiKey: process.env.ADMIN_API_KEY!, baseUrl, limits: { store } });
 * // ... at shutdown:
 * await store.close();
 * ```
 *
 * @module school-admin-sdk/redis
 */
export { RedisPermitStore, createRedisPermitStore, type RedisPermitStoreOptions } from './redis-permit-store.js';
export type { IoredisConnection, NodeRedisConnection, RedisConnection } from './connection/accepted-clients.js';
export { RedisStoreError, type RedisStoreErrorOptions } from './errors/redis-store-error.js';
export type { AcquireRequest, AcquireResult, EarlierSend, PermitStore } from '../rate-limit/permit-store.js';
