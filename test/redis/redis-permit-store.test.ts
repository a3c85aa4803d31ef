import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { BURST_MEMORY_WINDOWS, WAITER_HOLD_GRACE_MS } from '../../src/rate-limit/lane-rule.js';
import { createRedisPermitStore, RedisPermitStore } from '../../src/redis/index.js';
import { describePermitStoreContract } from '../rate-limit/permit-store-contract.js';
import { uniqueKeyPrefix, useRedisServer } from './shared-redis.js';

const redis = useRedisServer();
const API_KEY = 'sk_live_9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a';

/**
 * A bucket with one answered permit, one in flight, a refused interactive queue, a learnt limit and
 * window, a background permit and a 10 s pause: every key the store writes.
 */
async function writeEveryKindOfKey() {
  const client = redis().connect();
  const keyPrefix = uniqueKeyPrefix();
  const store = new RedisPermitStore(client, { keyPrefix });
  const bucket = bucketName(API_KEY, 'mutations');
  const request = { bucket, limit: 5, windowMs: 60_000, leaseMs: 30_000 };
  const first = await store.tryAcquire(request);
  if (!first.granted) throw new Error('expected a permit in an empty bucket');
  await store.tryAcquire({ ...request, lane: 'background' });
  await store.release(bucket, first.permitId, request.windowMs);
  await store.learnLimit(bucket, 2, request.windowMs);
  await store.learnWindow(bucket, request.windowMs, request.windowMs);
  await store.tryAcquire({ ...request, waiter: 'queue-1' });
  await store.pause(bucket, Date.now() + 10_000);
  return { client, keyPrefix, bucket, request };
}

describe('RedisPermitStore', () => {
  describePermitStoreContract(async (now) => ({
    store: new RedisPermitStore(redis().connect(), { keyPrefix: uniqueKeyPrefix(), clock: now }),
    close: async () => {},
  }));

  describe('keys: derived from a hash of the API key, never the key itself, and expiring', () => {
    it('holds no API key text, only the bucket name under the key prefix', async () => {
      const { client, keyPrefix, bucket } = await writeEveryKindOfKey();
      const keys = await client.keys(`${keyPrefix}*`);
      const suffixes = ['answered', 'background', 'generation', 'in-flight', 'interactive', 'interactive-permits', 'learnt-limit', 'learnt-window', 'paused-until', 'sent'];
      expect(keys.sort()).toEqual(suffixes.map((suffix) => `${keyPrefix}{${bucket}}:${suffix}`));
      for (const key of keys) {
        for (let start = 0; start + 8 <= API_KEY.length; start += 1) expect(key).not.toContain(API_KEY.slice(start, start + 8));
      }
    });

    it('every key carries an expiry no longer than what it must remember', async () => {
      const { client, keyPrefix, bucket, request } = await writeEveryKindOfKey();
      const ttl = async (suffix: string): Promise<number> => client.pttl(`${keyPrefix}{${bucket}}:${suffix}`);
      expect(await ttl('in-flight')).toBeGreaterThan(0);
      expect(await ttl('in-flight')).toBeLessThanOrEqual(request.leaseMs + request.windowMs);
      expect(await ttl('answered')).toBeGreaterThan(0);
      expect(await ttl('answered')).toBeLessThanOrEqual(request.windowMs);
      expect(await ttl('paused-until')).toBeGreaterThan(0);
      expect(await ttl('paused-until')).toBeLessThanOrEqual(10_000);
      // A refused queue's hold lasts until its next attempt plus the grace; an interactive burst is
      // remembered for BURST_MEMORY_WINDOWS windows.
      expect(await ttl('interactive')).toBeGreaterThan(0);
      expect(await ttl('interactive')).toBeLessThanOrEqual(BURST_MEMORY_WINDOWS * request.windowMs + WAITER_HOLD_GRACE_MS);
      for (const suffix of ['interactive-permits', 'sent']) {
        expect(await ttl(suffix)).toBeGreaterThan(0);
        expect(await ttl(suffix)).toBeLessThanOrEqual(request.leaseMs + request.windowMs);
      }
      expect(await ttl('learnt-window')).toBeGreaterThan(0);
      expect(await ttl('learnt-window')).toBeLessThanOrEqual(request.leaseMs + request.windowMs);
      // Kept while the bucket is in use: the lease of the latest permit and a window.
      expect(await ttl('learnt-limit')).toBeGreaterThan(0);
      expect(await ttl('learnt-limit')).toBeLessThanOrEqual(request.leaseMs + request.windowMs);
      expect(await ttl('background')).toBeGreaterThan(0);
      expect(await ttl('background')).toBeLessThanOrEqual(request.leaseMs + request.windowMs);
      // Outlives the rest by as much again, so an idle bucket never looks like a reset (see "store resets").
      expect(await ttl('generation')).toBeGreaterThan(request.leaseMs + request.windowMs);
      expect(await ttl('generation')).toBeLessThanOrEqual(2 * (request.leaseMs + request.windowMs));
    });

    it('an idle bucket vanishes once nothing in it counts any more (learnt limit, lanes and holds included)', async () => {
      const client = redis().connect();
      const keyPrefix = uniqueKeyPrefix();
      const store = new RedisPermitStore(client, { keyPrefix });
      const bucket = bucketName(API_KEY, 'mutations');
      const request = { bucket, limit: 2, windowMs: 100, leaseMs: 200 };
      await store.learnLimit(bucket, 2, request.windowMs);
      const first = await store.tryAcquire(request);
      await store.tryAcquire({ ...request, lane: 'background' });
      await store.tryAcquire({ ...request, waiter: 'queue-1' });
      if (first.granted) await store.release(bucket, first.permitId, request.windowMs);
      expect(await client.keys(`${keyPrefix}*`)).not.toEqual([]);
      // Everything stops counting 1.3 s after the last write (the hold's grace is the longest; an
      // interactive burst is remembered 8 windows, 0.8 s; the generation is kept 0.6 s, twice window
      // + lease); give a busy machine ample time.
      for (let waited = 0; waited < 10_000 && (await client.keys(`${keyPrefix}*`)).length > 0; waited += 100) await sleep(100);
      expect(await client.keys(`${keyPrefix}*`)).toEqual([]);
    });
  });

  describe('scripts', () => {
    it('loads its scripts again when Redis forgot them (SCRIPT FLUSH, restart)', async () => {
      const client = redis().connect();
      const store = new RedisPermitStore(client, { keyPrefix: uniqueKeyPrefix() });
      const request = { bucket: bucketName(API_KEY, 'queries'), limit: 2, windowMs: 60_000, leaseMs: 30_000 };
      expect((await store.tryAcquire(request)).granted).toBe(true);
      await client.script('FLUSH');
      expect((await store.tryAcquire(request)).granted).toBe(true);
      expect(await store.tryAcquire(request)).toMatchObject({ granted: false, paused: false });
    });

    it("works under the client's own ioredis keyPrefix, adding its prefix after it", async () => {
      const clientPrefix = uniqueKeyPrefix();
      const client = new Redis(redis().server.url, { keyPrefix: clientPrefix });
      const keyPrefix = uniqueKeyPrefix();
      const bucket = bucketName(API_KEY, 'queries');
      try {
        const store = new RedisPermitStore(client, { keyPrefix });
        expect((await store.tryAcquire({ bucket, limit: 1, windowMs: 60_000, leaseMs: 30_000 })).granted).toBe(true);
        expect((await redis().connect().keys(`${clientPrefix}*`)).sort()).toEqual([
          `${clientPrefix}${keyPrefix}{${bucket}}:generation`,
          `${clientPrefix}${keyPrefix}{${bucket}}:in-flight`,
          `${clientPrefix}${keyPrefix}{${bucket}}:interactive`,
          `${clientPrefix}${keyPrefix}{${bucket}}:interactive-permits`,
          `${clientPrefix}${keyPrefix}{${bucket}}:sent`,
        ]);
      } finally {
        await client.quit();
      }
    });
  });

  describe('connections', () => {
    it('createRedisPermitStore(url) opens its own connection and close() ends it', async () => {
      const store = createRedisPermitStore(redis().server.url, { keyPrefix: uniqueKeyPrefix() });
      expect((await store.tryAcquire({ bucket: 'b', limit: 1, windowMs: 1_000, leaseMs: 1_000 })).granted).toBe(true);
      await store.close();
      expect((store.client as Redis).status).toBe('end');
    });

    it('close() leaves a client passed in open', async () => {
      const client = redis().connect();
      const store = new RedisPermitStore(client, { keyPrefix: uniqueKeyPrefix() });
      await store.close();
      expect(await client.ping()).toBe('PONG');
    });
  });
});
