import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { MemoryPermitStore } from '../../src/rate-limit/memory-permit-store.js';
import { describePermitStoreContract } from './permit-store-contract.js';
import { VirtualClock } from './virtual-clock.js';

describe('MemoryPermitStore', () => {
  describePermitStoreContract(async (now) => ({ store: new MemoryPermitStore({ now }), close: async () => {} }));

  describe('scale: limit 600 (the queries budget)', () => {
    it('grants a burst of 600, refuses the 601st, and frees the slots one by one as answers age', async () => {
      const clock = new VirtualClock();
      const store = new MemoryPermitStore({ now: clock.now });
      const request = { bucket: bucketName('scale-key', 'queries'), limit: 600, windowMs: 60_000, leaseMs: 120_000 };
      const ids: string[] = [];
      for (let index = 0; index < 600; index += 1) {
        const result = await store.tryAcquire(request);
        if (result.granted) ids.push(result.permitId);
      }
      expect(ids).toHaveLength(600);
      for (const id of ids) {
        clock.advance(10);
        await store.release(request.bucket, id, request.windowMs);
      }
      // Answers at +10, +20, ... +6000 count until +60010, +60020, ...; now is +6000.
      expect(await store.tryAcquire(request)).toEqual({ granted: false, retryAfterMs: 54_010, paused: false, limit: 600, windowMs: 60_000 });
      clock.advance(54_010);
      expect((await store.tryAcquire(request)).granted).toBe(true);
      expect(await store.tryAcquire(request)).toEqual({ granted: false, retryAfterMs: 10, paused: false, limit: 600, windowMs: 60_000 });
    });
  });

  describe('memory follows the keys in use: "state of a key idle for longer than its window (plus any lease) is freed"', () => {
    const windowMs = 1_000;
    const leaseMs = 5_000;

    it('100,000 keys, each used once (a permit taken and answered) and dropped: the store holds only the last window of keys', async () => {
      const clock = new VirtualClock();
      const store = new MemoryPermitStore({ now: clock.now });
      let most = 0;
      for (let key = 0; key < 100_000; key += 1) {
        const bucket = bucketName(`tenant-key-${key}`, 'mutations');
        const result = await store.tryAcquire({ bucket, limit: 10, windowMs, leaseMs });
        if (!result.granted) throw new Error('a fresh key must have room');
        await store.release(bucket, result.permitId, windowMs);
        clock.advance(1); // 1,000 new keys per window
        most = Math.max(most, store.bucketCount);
      }
      // Answered at once, a key counts for one window: about 1,000 keys in use at any time. Idle ones
      // are found within a round through the map, so at most a few hundred more are held.
      expect(most).toBeLessThanOrEqual(1_500);
      clock.advance(leaseMs + windowMs);
      await store.tryAcquire({ bucket: 'late', limit: 1, windowMs, leaseMs });
      for (let call = 0; call < 10_000 && store.bucketCount > 1; call += 1) await store.tryAcquire({ bucket: 'late', limit: 1, windowMs, leaseMs });
      expect(store.bucketCount).toBe(1);
    });

    it('a key in use is never forgotten: its permits keep counting however many other keys come and go', async () => {
      const clock = new VirtualClock();
      const store = new MemoryPermitStore({ now: clock.now });
      const busy = { bucket: bucketName('busy-key', 'mutations'), limit: 2, windowMs, leaseMs };
      await store.tryAcquire(busy);
      await store.tryAcquire(busy);
      for (let key = 0; key < 5_000; key += 1) await store.tryAcquire({ bucket: `other-${key}`, limit: 1, windowMs: 1, leaseMs: 1 });
      clock.advance(leaseMs - 1);
      for (let key = 0; key < 5_000; key += 1) await store.tryAcquire({ bucket: `more-${key}`, limit: 1, windowMs: 1, leaseMs: 1 });
      expect(await store.tryAcquire(busy)).toMatchObject({ granted: false, retryAfterMs: 1 });
    });

    it('a learnt limit and a pause go with their idle bucket', async () => {
      const clock = new VirtualClock();
      const store = new MemoryPermitStore({ now: clock.now });
      const bucket = bucketName('learnt-key', 'mutations');
      await store.learnLimit(bucket, 1, windowMs);
      await store.pause(bucket, clock.now() + 500);
      clock.advance(windowMs);
      await store.tryAcquire({ bucket: 'other', limit: 1, windowMs, leaseMs });
      expect(store.bucketCount).toBe(1);
      const fresh = { bucket, limit: 3, windowMs, leaseMs };
      expect((await Promise.all([1, 2, 3].map(() => store.tryAcquire(fresh)))).every((result) => result.granted)).toBe(true);
    });
  });
});
