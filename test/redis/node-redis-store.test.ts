import { createRequire } from 'node:module';
import semver from 'semver';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient as createClient6 } from 'redis';
import { createClient as createClient5 } from 'redis-v5';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { RedisPermitStore } from '../../src/redis/index.js';
import { describePermitStoreContract } from '../rate-limit/permit-store-contract.js';
import { uniqueKeyPrefix, useRedisServer } from './shared-redis.js';

const redis = useRedisServer();
const opened: { destroy(): void }[] = [];
afterAll(() => {
  for (const client of opened) client.destroy();
});

/** A connected node-redis client of `major` (with the 'error' listener node-redis asks for). */
async function nodeRedisClient(major: 6 | 5, options: { keyPrefix?: string } = {}) {
  const client = major === 6 ? createClient6({ url: redis().server.url, ...options }) : createClient5({ url: redis().server.url });
  client.on('error', () => undefined);
  await client.connect();
  opened.push(client);
  return client;
}

describe.each([6, 5] as const)('RedisPermitStore on a node-redis %i client (createClient of the redis package)', (major) => {
  let shared: Awaited<ReturnType<typeof nodeRedisClient>> | undefined;
  describePermitStoreContract(async (now) => {
    shared ??= await nodeRedisClient(major);
    return { store: new RedisPermitStore(shared, { keyPrefix: uniqueKeyPrefix(), clock: now }), close: async () => {} };
  });

  it('loads its scripts again when Redis forgot them (SCRIPT FLUSH)', async () => {
    const client = await nodeRedisClient(major);
    const store = new RedisPermitStore(client, { keyPrefix: uniqueKeyPrefix() });
    const request = { bucket: bucketName('sk_live_node_redis', 'queries'), limit: 2, windowMs: 60_000, leaseMs: 30_000 };
    expect((await store.tryAcquire(request)).granted).toBe(true);
    await client.scriptFlush();
    expect((await store.tryAcquire(request)).granted).toBe(true);
    expect(await store.tryAcquire(request)).toMatchObject({ granted: false, paused: false });
  });

  it('close() leaves the client passed in open', async () => {
    const client = await nodeRedisClient(major);
    await new RedisPermitStore(client, { keyPrefix: uniqueKeyPrefix() }).close();
    expect(await client.ping()).toBe('PONG');
  });
});

// node-redis added the client's keyPrefix in 6.1.0; CI's oldest leg runs 6.0.0, which has none to honour.
const installed6 = String(createRequire(import.meta.url)('redis/package.json').version);

describe('node-redis 6 keyPrefix', () => {
  it.runIf(semver.gte(installed6, '6.1.0'))("works under the client's own keyPrefix, adding its prefix after it", async () => {
    const clientPrefix = uniqueKeyPrefix();
    const client = await nodeRedisClient(6, { keyPrefix: clientPrefix });
    const keyPrefix = uniqueKeyPrefix();
    const bucket = bucketName('sk_live_node_redis_prefix', 'queries');
    const store = new RedisPermitStore(client, { keyPrefix });
    expect((await store.tryAcquire({ bucket, limit: 1, windowMs: 60_000, leaseMs: 30_000 })).granted).toBe(true);
    expect((await redis().connect().keys(`${clientPrefix}*`)).sort()).toEqual(
      ['generation', 'in-flight', 'interactive', 'interactive-permits', 'sent'].map((suffix) => `${clientPrefix}${keyPrefix}{${bucket}}:${suffix}`),
    );
  });
});
