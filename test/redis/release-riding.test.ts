import { describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { AdminClient } from '../../src/index.js';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import type { AcquireRequest } from '../../src/rate-limit/permit-store.js';
import { RedisPermitStore } from '../../src/redis/index.js';
import { VirtualClock } from '../rate-limit/virtual-clock.js';
import { uniqueKeyPrefix, useRedisServer } from './shared-redis.js';

const redis = useRedisServer();
const BUCKET = bucketName('sk_live_release_riding', 'mutations');
const WINDOW_MS = 1_000;
const request = (limit: number): AcquireRequest => ({ bucket: BUCKET, limit, windowMs: WINDOW_MS, leaseMs: 5_000 });

/** Scripts Redis ran since the last reset: EVALSHA and EVAL calls less those that failed (a NOSCRIPT before the script's first EVAL). */
async function scriptCalls(client: Redis): Promise<number> {
  const info = await client.info('commandstats');
  let runs = 0;
  for (const [, calls, failed] of info.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+),.*?failed_calls=(\d+)/g)) runs += Number(calls) - Number(failed);
  return runs;
}

async function grant(store: RedisPermitStore, acquire: AcquireRequest): Promise<string> {
  const result = await store.tryAcquire(acquire);
  if (!result.granted) throw new Error(`expected a permit, got ${JSON.stringify(result)}`);
  return result.permitId;
}

describe('releases ride with the next permit request: "at most one round trip per permit"', () => {
  it('a release followed by a request of its bucket in the same turn of the event loop goes with it: one script call for both, the slot counted from the answer', async () => {
    const admin = redis().connect();
    const clock = new VirtualClock(0);
    const store = new RedisPermitStore(redis().connect(), { keyPrefix: uniqueKeyPrefix(), clock: clock.now });
    const first = await grant(store, request(1));
    await admin.config('RESETSTAT');
    clock.set(300);
    const released = store.release(BUCKET, first, WINDOW_MS);
    // The response came at 300; the next call asks 200 ms later on the store's clock (the same turn for the event loop).
    clock.set(500);
    // Answered at 300 (not in flight until its lease ends at 5 000): free again at 1 300.
    expect(await store.tryAcquire(request(1))).toMatchObject({ granted: false, retryAfterMs: 800 });
    await released;
    expect(await scriptCalls(admin)).toBe(1);
  });

  it('releases not followed by a request go at the turn of the event loop, all of a bucket in one script call', async () => {
    const admin = redis().connect();
    const clock = new VirtualClock(0);
    const store = new RedisPermitStore(redis().connect(), { keyPrefix: uniqueKeyPrefix(), clock: clock.now });
    const permits = [await grant(store, request(5)), await grant(store, request(5)), await grant(store, request(5)), await grant(store, request(5)), await grant(store, request(5))];
    await admin.config('RESETSTAT');
    clock.set(100);
    let woken = 0;
    store.onRelease(BUCKET, () => void (woken += 1));
    await Promise.all(permits.map((permit) => store.release(BUCKET, permit, WINDOW_MS)));
    expect({ scriptCalls: await scriptCalls(admin), woken }).toEqual({ scriptCalls: 1, woken: 5 });
    // Answered at 100: the first slot frees at 1 100.
    clock.set(600);
    expect(await store.tryAcquire(request(5))).toMatchObject({ granted: false, retryAfterMs: 500 });
  });

  it('close() sends the releases still waiting before it ends a connection it made', async () => {
    const admin = redis().connect();
    const keyPrefix = uniqueKeyPrefix();
    const store = new RedisPermitStore(redis().server.url, { keyPrefix });
    const permit = await grant(store, request(2));
    void store.release(BUCKET, permit, WINDOW_MS);
    await store.close();
    expect(await admin.zcard(`${keyPrefix}{${BUCKET}}:in-flight`)).toBe(0);
    expect(await admin.zcard(`${keyPrefix}{${BUCKET}}:answered`)).toBe(1);
  });

  it('ten calls of one key made one after the other cost Redis about ten script calls, not twenty (c07ece8: an acquire and a release each)', async () => {
    const admin = redis().connect();
    const store = new RedisPermitStore(redis().connect(), { keyPrefix: uniqueKeyPrefix() });
    const answer = JSON.stringify({ data: { updateCoupon: { coupon: { id: 'c1', name: 'x', couponType: 'percentage', amount: 10, code: null, expiredAt: null, startedAt: null }, errors: null } } });
    const client = new AdminClient({
      apiKey: 'sk_live_release_riding_client_0123456789',
      baseUrl: 'https://school.example',
      fetch: async () => new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } }),
      limits: { store },
    });
    await admin.config('RESETSTAT');
    for (let call = 0; call < 10; call += 1) await client.updateCoupon('c1', { name: `x${call}` }).catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await scriptCalls(admin)).toBeLessThanOrEqual(11);
  });
});
