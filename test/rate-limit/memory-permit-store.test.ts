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
      expect(await store.tryAcquire(request)).toEqual({ granted: false, retryAfterMs: 54_010, paused: false });
      clock.advance(54_010);
      expect((await store.tryAcquire(request)).granted).toBe(true);
      expect(await store.tryAcquire(request)).toEqual({ granted: false, retryAfterMs: 10, paused: false });
    });
  });
});
