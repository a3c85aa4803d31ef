import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { RateLimiter } from '../../src/rate-limit/limiter.js';
import { MemoryPermitStore } from '../../src/rate-limit/memory-permit-store.js';
import type { AcquireRequest, EarlierSend, PermitStore } from '../../src/rate-limit/permit-store.js';
import { RedisPermitStore } from '../../src/redis/index.js';
import { VirtualClock } from './virtual-clock.js';

/*
 * Issue 30, point 1: a resumed job's earlier sends (its journal's, from a process that died) are
 * counted by the store as if it had granted them: `PermitStore.seed` (memory only; a Redis store
 * granted them itself) and `RateLimiter.seedEarlier`, which also adopts the budget the earlier run
 * had learnt from the server.
 */

const WINDOW_MS = 10_000;
const bucket = bucketName('seed-key', 'mutations');
const request = (limit: number, more: Partial<AcquireRequest> = {}): AcquireRequest => ({ bucket, limit, windowMs: WINDOW_MS, leaseMs: 15_000, ...more });

/** Permits granted at once now. */
async function grantedNow(store: PermitStore, asked: AcquireRequest): Promise<number> {
  let granted = 0;
  while (granted <= asked.limit && (await store.tryAcquire(asked)).granted) granted += 1;
  return granted;
}

describe('MemoryPermitStore.seed: "a new, minimal, optional way to seed a bucket with earlier sends"', () => {
  it('earlier sends count until a window after their answer, as the store\'s own do', async () => {
    const clock = new VirtualClock();
    const store = new MemoryPermitStore({ now: clock.now });
    const sends: EarlierSend[] = [1, 2, 3].map((n) => ({ sentAt: clock.now() - 2_000 - n, answeredAt: clock.now() - 1_000 }));
    await store.seed(bucket, sends, WINDOW_MS);
    expect(await store.tryAcquire(request(3))).toEqual({ granted: false, retryAfterMs: 9_000, paused: false, limit: 3, windowMs: WINDOW_MS });
    expect(await grantedNow(store, request(5))).toBe(2);
    clock.advance(9_000);
    expect(await grantedNow(store, request(5))).toBe(3);
  });

  it('a seeded bucket is not forgotten as idle before it is asked for (other keys\' calls look at idle buckets)', async () => {
    const clock = new VirtualClock();
    const store = new MemoryPermitStore({ now: clock.now });
    await store.seed(bucket, [{ sentAt: clock.now() - 100, answeredAt: clock.now() - 50 }], WINDOW_MS);
    for (let key = 0; key < 5; key += 1) await store.tryAcquire({ ...request(10), bucket: bucketName(`other-${key}`, 'mutations') });
    expect(store.bucketCount).toBe(6);
    expect(await grantedNow(store, request(3))).toBe(2);
  });

  it('they are bulk work: background requests count them in their lane, and a resumed job is not ramped again', async () => {
    const clock = new VirtualClock();
    const fresh = new MemoryPermitStore({ now: clock.now });
    const background = request(100, { lane: 'background', ramp: 25 });
    // A job's first window hands out 25 of the 100 slots across the window.
    expect(await grantedNow(fresh, background)).toBe(75);
    const resumed = new MemoryPermitStore({ now: clock.now });
    await resumed.seed(bucket, Array.from({ length: 50 }, () => ({ sentAt: clock.now() - 10, answeredAt: clock.now() })), WINDOW_MS);
    expect(await grantedNow(resumed, background)).toBe(50);
  });

  it('what a script may pass wrongly (a Map, undefined, NaN times, no window) is a clear RangeError, and nothing is counted', async () => {
    const store = new MemoryPermitStore();
    const wrong: Array<[unknown, number]> = [
      [new Map([[1, 2]]), WINDOW_MS],
      [undefined, WINDOW_MS],
      [[undefined], WINDOW_MS],
      [[{ sentAt: Number.NaN, answeredAt: 1 }], WINDOW_MS],
      [[{ sentAt: 1, answeredAt: '2' }], WINDOW_MS],
      [[{ sentAt: 1, answeredAt: 2 }], Number.NaN],
    ];
    for (const [sends, windowMs] of wrong) {
      await expect(store.seed(bucket, sends as EarlierSend[], windowMs)).rejects.toThrow(new RangeError('Failed to seed earlier sends: pass [{ sentAt, answeredAt }] in epoch ms and a positive windowMs.'));
    }
    expect(store.bucketCount).toBe(0);
    expect(await grantedNow(store, request(3))).toBe(3);
  });

  it('the Redis store has none: it granted the earlier process\'s permits itself and counts them already', () => {
    expect('seed' in RedisPermitStore.prototype).toBe(false);
  });
});

describe('RateLimiter.seedEarlier', () => {
  const limiter = (store: PermitStore) =>
    new RateLimiter({
      store,
      buckets: { mutations: bucket, queries: bucketName('seed-key', 'queries') },
      budgets: { mutations: { limit: 200, windowMs: 60_000 }, queries: { limit: 600, windowMs: 60_000 } },
      leaseMs: 35_000,
      defaultBudgets: { mutations: true, queries: true },
    });

  it('hands the sends to the store, and adopts the budget the earlier run learnt from the server', async () => {
    const store = new MemoryPermitStore();
    const seeded: Array<{ sends: readonly EarlierSend[]; windowMs: number }> = [];
    const spy: PermitStore = {
      tryAcquire: (asked) => store.tryAcquire(asked),
      release: (...args) => store.release(...args),
      pause: (...args) => store.pause(...args),
      learnLimit: (...args) => store.learnLimit(...args),
      learnWindow: (...args) => store.learnWindow(...args),
      seed: async (name, sends, windowMs) => {
        seeded.push({ sends, windowMs });
        return store.seed(name, sends, windowMs);
      },
    };
    const paced = limiter(spy);
    const sends = [{ sentAt: Date.now() - 20, answeredAt: Date.now() - 10 }];
    await paced.seedEarlier('mutations', sends, { limit: 50, windowMs: 5_000 });
    expect(paced.budgetInForce('mutations')).toEqual({ limit: 50, windowMs: 5_000, source: 'server' });
    // The learnt window is the one the store is told.
    expect(seeded).toEqual([{ sends, windowMs: 5_000 }]);
  });

  it('a store without `seed` is left as it is (the Redis store, a custom one): nothing thrown, nothing counted twice', async () => {
    const store = new MemoryPermitStore();
    const withoutSeed: PermitStore = { tryAcquire: (asked) => store.tryAcquire(asked), release: (...args) => store.release(...args), pause: (...args) => store.pause(...args) };
    const paced = limiter(withoutSeed);
    await expect(paced.seedEarlier('mutations', [{ sentAt: 1, answeredAt: 2 }])).resolves.toBeUndefined();
    expect(paced.budgetInForce('mutations')).toEqual({ limit: 200, windowMs: 60_000, source: 'default' });
  });
});
