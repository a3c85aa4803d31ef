import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import type { AcquireRequest, PermitStore } from '../../src/rate-limit/permit-store.js';
import { CONTRACT_WINDOW_MS as WINDOW_MS, contractRequests } from './contract-requests.js';
import type { VirtualClock } from './virtual-clock.js';

const BUCKET = bucketName('batch-contract-key', 'mutations');

/**
 * Batch mode (`AcquireRequest.batch`, a client's `interactiveReserve: 0`): a process that runs bulk
 * work only keeps nothing free for interactive traffic, in every store. Each case sets up what
 * makes the lane rule keep slots (a reserve, a ramp, interactive calls, a burst) and shows that a
 * batch request takes them all; on c07ece8 (no batch mode) each of them kept slots back.
 */
export function describeBatchContract(subject: () => { store: PermitStore; clock: VirtualClock }): void {
  const { request, interactive, grant, grantCount, advance } = contractRequests(subject, BUCKET);
  const batch = (limit: number, overrides: Partial<AcquireRequest> = {}): AcquireRequest => request(limit, { lane: 'background', batch: true, ...overrides });
  const release = (id: string): Promise<void> => subject().store.release(BUCKET, id, WINDOW_MS);

  describe('batch mode: a process that runs bulk work only keeps nothing free for interactive calls', () => {
    it('no reserve: batch work takes every slot, a reserve passed along is not applied', async () => {
      expect(await grantCount(batch(10, { reserve: 3 }))).toBe(10);
    });

    it('no ramp: the first window of a job takes the whole budget at once', async () => {
      expect(await grantCount(batch(10, { ramp: 4 }))).toBe(10);
    });

    it('no share kept after interactive calls: batch work takes every slot they do not count in', async () => {
      for (let call = 0; call < 3; call += 1) {
        await release(await grant(interactive(10)));
        advance(100);
      }
      // 3 interactive requests count: the lane rule kept their share and one slot more (6); batch takes 7.
      expect(await grantCount(batch(10))).toBe(7);
    });

    it('no slots kept after a burst: once its counts end, batch work takes the whole budget', async () => {
      await grant(batch(10, { leaseMs: 60 * WINDOW_MS })); // a job in flight keeps the bucket in use
      const burst = [await grant(interactive(10)), await grant(interactive(10)), await grant(interactive(10))];
      for (const id of burst) await release(id);
      advance(3 * WINDOW_MS); // the lane rule would keep 3 free for 8 windows
      expect(await grantCount(batch(10))).toBe(9);
    });

    it('an interactive call made anyway takes the next slot that frees: a refused queue still holds it against batch work', async () => {
      const permits = await Promise.all(Array.from({ length: 3 }, () => grant(batch(3))));
      advance(100);
      for (const id of permits) await release(id);
      const refused = await subject().store.tryAcquire(interactive(3, { waiter: 'queue-a' }));
      expect(refused).toMatchObject({ granted: false, retryAfterMs: WINDOW_MS });
      advance(WINDOW_MS); // all three free: one held for the queue
      expect(await grantCount(batch(3))).toBe(2);
      await grant(interactive(3, { waiter: 'queue-a' }));
    });
  });
}
