import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { BURST_MEMORY_WINDOWS, RAMP_RESTART_WINDOWS, WAITER_HOLD_GRACE_MS } from '../../src/rate-limit/lane-rule.js';
import type { AcquireRequest, PermitStore } from '../../src/rate-limit/permit-store.js';
import { CONTRACT_LEASE_MS as LEASE_MS, CONTRACT_WINDOW_MS as WINDOW_MS, contractRequests } from './contract-requests.js';
import type { VirtualClock } from './virtual-clock.js';

const BUCKET = bucketName('lane-contract-key', 'mutations');

/**
 * The lane and learnt-limit rules of `PermitStore` (src/rate-limit/permit-store.ts), on a virtual
 * clock; called by the shared contract for every store.
 */
export function describeLaneAndLimitContract(subject: () => { store: PermitStore; clock: VirtualClock }): void {
  const { request, interactive, grant, grantCount, advance } = contractRequests(subject, BUCKET);
  const background = (limit: number, overrides: Partial<AcquireRequest> = {}): AcquireRequest => request(limit, { lane: 'background', ...overrides });
  async function refusal(acquire: AcquireRequest): Promise<number> {
    const result = await subject().store.tryAcquire(acquire);
    if (result.granted) throw new Error('expected a refusal, got a permit');
    return result.retryAfterMs;
  }

  describe('lanes: an interactive request overtakes background ones', () => {
    it('an interactive request may take any free slot, the last one included', async () => {
      expect(await grantCount(background(3))).toBe(3);
      advance(WINDOW_MS + LEASE_MS);
      expect(await grantCount(background(3, { reserve: 1 }))).toBe(2);
      expect(await grantCount(interactive(3))).toBe(1);
    });

    it('background leaves `reserve` slots free at all times, before any interactive request was seen', async () => {
      expect(await grantCount(background(5, { reserve: 2 }))).toBe(3);
      expect(await refusal(background(5, { reserve: 2 }))).toBeGreaterThan(0);
      expect(await grantCount(interactive(5))).toBe(2);
    });

    it('a refused interactive queue holds a slot against background requests: they take the rest, it takes its own', async () => {
      const permits = [await grant(background(3)), await grant(background(3)), await grant(background(3))];
      advance(100);
      for (const id of permits) await subject().store.release(BUCKET, id, WINDOW_MS);
      advance(100);
      expect(await refusal(interactive(3, { waiter: 'queue-a' }))).toBe(900);
      advance(900); // all three slots free now: one held for the queue, one kept free while interactive calls are about
      expect(await grantCount(background(3))).toBe(1);
      await grant(interactive(3, { waiter: 'queue-a' }));
      expect(await grantCount(background(3))).toBe(0);
    });

    it('with a limit of 1, background waits while an interactive queue holds the only slot', async () => {
      await subject().store.release(BUCKET, await grant(background(1)), WINDOW_MS);
      expect(await refusal(interactive(1, { waiter: 'queue-a' }))).toBe(WINDOW_MS);
      advance(WINDOW_MS);
      expect(await grantCount(background(1))).toBe(0);
      await grant(interactive(1, { waiter: 'queue-a' }));
    });

    it(`a queue that never comes back holds its slot only until ${WAITER_HOLD_GRACE_MS} ms after it was due`, async () => {
      await subject().store.release(BUCKET, await grant(background(1)), WINDOW_MS);
      expect(await refusal(interactive(1, { waiter: 'gone' }))).toBe(WINDOW_MS);
      advance(WINDOW_MS);
      expect(await refusal(background(1))).toBe(WAITER_HOLD_GRACE_MS); // told when the hold ends
      advance(WAITER_HOLD_GRACE_MS - 1);
      expect(await grantCount(background(1))).toBe(0);
      advance(1);
      expect(await grantCount(background(1))).toBe(1);
    });

    it('an interactive request is not held back by the slots held for other interactive queues', async () => {
      await subject().store.release(BUCKET, await grant(background(1)), WINDOW_MS);
      await refusal(interactive(1, { waiter: 'queue-a' }));
      advance(WINDOW_MS);
      await grant(interactive(1, { waiter: 'queue-b' }));
    });

    it('background keeps off the share the interactive traffic takes: the most interactive requests counted at once within the last window', async () => {
      for (let call = 0; call < 3; call += 1) {
        await subject().store.release(BUCKET, await grant(interactive(10)), WINDOW_MS);
        advance(100);
      }
      // 3 interactive requests count: background may count at most 10 - 3 - 1 = 6.
      expect(await grantCount(background(10, { reserve: 1 }))).toBe(6);
      expect(await grantCount(interactive(10))).toBe(1);
    });

    it('the reserve is not added to that share: below its peak, interactive traffic finds free the larger of its unused share and the reserve, not their sum', async () => {
      for (let call = 0; call < 3; call += 1) {
        await subject().store.release(BUCKET, await grant(interactive(10)), WINDOW_MS);
        advance(300);
      }
      advance(100); // t = 1000: the first call's count ended, 2 count; the peak of 3 is remembered
      // Background counts at most 10 - 3 = 7: one slot free for the next interactive call (the
      // peak's unused share, which covers the reserve of 1), not 1 + 1.
      expect(await grantCount(background(10, { reserve: 1 }))).toBe(7);
      expect(await grantCount(interactive(10))).toBe(1);
    });

    it('the slot an interactive request leaves when its count ends goes to the next interactive request, not to background work', async () => {
      await subject().store.release(BUCKET, await grant(interactive(4)), WINDOW_MS); // counts until 1000
      expect(await grantCount(background(4, { reserve: 1 }))).toBe(2); // 4 - 1 - 1
      advance(WINDOW_MS / 2);
      await subject().store.release(BUCKET, await grant(interactive(4)), WINDOW_MS); // the free slot; counts until 1500
      advance(WINDOW_MS / 2); // the first interactive request's count ends: a slot frees
      expect(await grantCount(background(4, { reserve: 1 }))).toBe(0);
      await grant(interactive(4));
    });

    // A background permit in flight keeps the bucket in use (a store may forget an idle bucket, bursts included).
    const bulkRunning = (): Promise<string> => grant(background(10, { leaseMs: 60 * WINDOW_MS }));

    it('background leaves free as many slots as the largest interactive burst seen lately, not only in its first window', async () => {
      await bulkRunning();
      const burst = [await grant(interactive(10)), await grant(interactive(10)), await grant(interactive(10))];
      for (const id of burst) await subject().store.release(BUCKET, id, WINDOW_MS);
      advance(3 * WINDOW_MS); // the burst's counts ended windows ago
      expect(await grantCount(background(10, { reserve: 1 }))).toBe(6); // 1 + 6 counted, 3 free
      expect(await grantCount(interactive(10))).toBe(3);
    });

    it('a burst asked for as one queue (its demand) counts as a burst', async () => {
      await bulkRunning();
      const others = await Promise.all(Array.from({ length: 9 }, () => grant(background(10))));
      await refusal(interactive(10, { demand: 4, waiter: 'queue-a' }));
      for (const id of others) await subject().store.release(BUCKET, id, WINDOW_MS);
      advance(3 * WINDOW_MS); // their counts ended; the queue gave up
      expect(await grantCount(background(10, { reserve: 1 }))).toBe(5); // 1 + 5 counted, 4 free
    });

    it('a request that tells its burst (calls made at once) is remembered by it, not by its queue\'s demand or the requests in flight', async () => {
      await bulkRunning();
      const others = await Promise.all(Array.from({ length: 9 }, () => grant(background(10))));
      // A queue of 4 that built up one call at a time while the budget was full.
      await refusal(interactive(10, { demand: 4, burst: 1, waiter: 'queue-a' }));
      for (const id of others) await subject().store.release(BUCKET, id, WINDOW_MS);
      advance(3 * WINDOW_MS);
      const released = [await grant(interactive(10, { demand: 3, burst: 1 })), await grant(interactive(10, { demand: 2, burst: 1 })), await grant(interactive(10, { burst: 1 }))];
      for (const id of released) await subject().store.release(BUCKET, id, WINDOW_MS);
      advance(3 * WINDOW_MS);
      expect(await grantCount(background(10, { reserve: 1 }))).toBe(8); // 1 + 8 counted, the reserve free
    });

    it(`a burst is forgotten after ${BURST_MEMORY_WINDOWS} windows without one; the reserve stays`, async () => {
      await bulkRunning();
      for (const id of [await grant(interactive(10)), await grant(interactive(10)), await grant(interactive(10))]) await subject().store.release(BUCKET, id, WINDOW_MS);
      advance(BURST_MEMORY_WINDOWS * WINDOW_MS);
      expect(await grantCount(background(10, { reserve: 1 }))).toBe(8); // 1 + 8 counted, 1 free
    });

    it('the interactive share lifts a window after the last interactive request', async () => {
      await subject().store.release(BUCKET, await grant(interactive(3)), WINDOW_MS);
      expect(await grantCount(background(3, { reserve: 1 }))).toBe(1);
      advance(WINDOW_MS);
      expect(await grantCount(background(3, { reserve: 1 }))).toBe(1); // 3 - 1 counted - 1 kept free
      expect(await grantCount(background(3, { reserve: 1 }))).toBe(0);
    });

    it('in the first window of a bulk job, background takes the limit less `ramp` at once and those evenly across the window', async () => {
      expect(await grantCount(background(10, { ramp: 4 }))).toBe(6);
      expect(await refusal(background(10, { ramp: 4 }))).toBe(250); // held 4 -> 3 at a quarter of the window
      advance(250);
      expect(await grantCount(background(10, { ramp: 4 }))).toBe(1);
      advance(WINDOW_MS - 250);
      expect(await grantCount(background(10, { ramp: 4 }))).toBe(3);
    });

    it('interactive requests made in that first window take ramp slots for good: background keeps off their share and the slots the ramp still holds together', async () => {
      expect(await grantCount(background(10, { ramp: 4 }))).toBe(6);
      for (let call = 0; call < 2; call += 1) await subject().store.release(BUCKET, await grant(interactive(10)), WINDOW_MS);
      advance(WINDOW_MS / 2); // the ramp holds 2 now; the 2 interactive requests (one at a time) still count
      // 10 - (2 + 2) = 6 background at most: none more. Taking the larger of the two instead let
      // bulk work fill the window, and interactive calls made in it waited for a whole window.
      expect(await grantCount(background(10, { ramp: 4 }))).toBe(0);
      expect(await grantCount(interactive(10))).toBe(2);
    });

    it('a background request refused at the moment the ramp lets one more through asks again at once, not a window later', async () => {
      expect(await grantCount(background(200, { ramp: 50 }), 300)).toBe(150);
      // 280 ms of the window to come: 0.28 x 50 is 14.000000000000002 in floating point, so 15 slots
      // read as held while the next step (14) is due now.
      advance(720);
      expect(await grantCount(background(200, { ramp: 50 }), 300)).toBeGreaterThanOrEqual(35);
      expect(await refusal(background(200, { ramp: 50 }))).toBeLessThanOrEqual(WINDOW_MS / 50);
    });

    it(`background work that finds none counted within ${RAMP_RESTART_WINDOWS} windows of its job's start goes on unramped (after a pause, a lull)`, async () => {
      const first = await Promise.all(Array.from({ length: 6 }, () => grant(background(10, { ramp: 4 }))));
      for (const id of first) await subject().store.release(BUCKET, id, WINDOW_MS);
      advance(WINDOW_MS); // every count ended; the job goes on
      const second = await Promise.all(Array.from({ length: 10 }, () => grant(background(10, { ramp: 4 }))));
      for (const id of second) await subject().store.release(BUCKET, id, WINDOW_MS);
      advance(RAMP_RESTART_WINDOWS * WINDOW_MS); // long enough: the next burst is a new job
      expect(await grantCount(background(10, { ramp: 4 }))).toBe(6);
    });

    it('without interactive traffic and without a reserve, background uses the whole limit', async () => {
      expect(await grantCount(background(4))).toBe(4);
    });

    it('the reserve never takes the last slot from background work (at most limit - 1)', async () => {
      expect(await grantCount(background(2, { reserve: 5 }))).toBe(1);
    });

    it('a request without a lane is interactive', async () => {
      await grant(request(3));
      expect(await grantCount(background(3, { reserve: 1 }))).toBe(1);
    });
  });

  describe('learnt limits: one limit for every client of the bucket', () => {
    it('a learnt limit replaces the documented default, lower or higher, and answers report it', async () => {
      await subject().store.learnLimit?.(BUCKET, 3, WINDOW_MS);
      expect(await grantCount(request(200))).toBe(3);
      expect(await subject().store.tryAcquire(request(200))).toMatchObject({ granted: false, limit: 3 });
      await subject().store.learnLimit?.(BUCKET, 8, WINDOW_MS);
      expect(await grantCount(request(5))).toBe(5);
      expect(await subject().store.tryAcquire(request(200))).toMatchObject({ granted: false, limit: 8 });
    });

    it('an explicitly configured limit is a ceiling: a learnt limit may lower it, never raise it', async () => {
      await subject().store.learnLimit?.(BUCKET, 1_000, WINDOW_MS);
      expect(await grantCount(request(5, { limitIsCeiling: true }))).toBe(5);
      expect(await subject().store.tryAcquire(request(5, { limitIsCeiling: true }))).toMatchObject({ granted: false, limit: 5 });
      await subject().store.learnLimit?.(BUCKET, 2, WINDOW_MS);
      expect(await subject().store.tryAcquire(request(5, { limitIsCeiling: true }))).toMatchObject({ granted: false, limit: 2 });
    });

    it('the applied limit is reported on grants too', async () => {
      expect(await subject().store.tryAcquire(request(7))).toMatchObject({ granted: true, limit: 7 });
    });
  });

  describe('learnt windows: the window the server revealed, for every client of the bucket', () => {
    it('a learnt window replaces the documented default, shorter or longer, and applies at once to the requests already counted', async () => {
      for (const id of [await grant(request(2)), await grant(request(2))]) await subject().store.release(BUCKET, id, WINDOW_MS);
      expect(await refusal(request(2))).toBe(WINDOW_MS);
      await subject().store.learnWindow?.(BUCKET, 400, WINDOW_MS);
      expect(await subject().store.tryAcquire(request(2))).toMatchObject({ granted: false, retryAfterMs: 400, windowMs: 400 });
      advance(400); // their counts ended (a longer window learnt later does not bring them back)
      const third = await grant(request(2));
      await subject().store.learnWindow?.(BUCKET, 3_000, WINDOW_MS);
      await subject().store.release(BUCKET, third, WINDOW_MS);
      await subject().store.release(BUCKET, await grant(request(2)), WINDOW_MS);
      expect(await subject().store.tryAcquire(request(2))).toMatchObject({ granted: false, retryAfterMs: 3_000, windowMs: 3_000 });
    });

    it('an explicitly configured window is a floor: a learnt window may lengthen it, never shorten it', async () => {
      await subject().store.learnWindow?.(BUCKET, 100, WINDOW_MS);
      expect(await subject().store.tryAcquire(request(5, { windowIsFloor: true }))).toMatchObject({ granted: true, windowMs: WINDOW_MS });
      await subject().store.learnWindow?.(BUCKET, 2_000, WINDOW_MS);
      expect(await subject().store.tryAcquire(request(5, { windowIsFloor: true }))).toMatchObject({ granted: true, windowMs: 2_000 });
    });

    it('grants tell how long ago the oldest counted request was sent (every client of the bucket)', async () => {
      const first = await grant(request(5));
      advance(300);
      expect(await subject().store.tryAcquire(request(5))).toMatchObject({ granted: true, oldestSentAgoMs: 300 });
      await subject().store.release(BUCKET, first, WINDOW_MS);
      advance(WINDOW_MS); // the first one's count ended; the second is in flight since 1000 ms
      expect(await subject().store.tryAcquire(request(5))).toMatchObject({ granted: true, oldestSentAgoMs: WINDOW_MS });
    });
  });

  describe('share: a fraction of the limit after 429s from traffic outside the SDK', () => {
    it('uses floor(limit x share) slots, and always at least one', async () => {
      expect(await grantCount(request(10, { share: 0.5 }))).toBe(5);
      advance(LEASE_MS + WINDOW_MS);
      expect(await grantCount(request(1, { share: 0.1 }))).toBe(1);
    });

    it('applies after a learnt limit', async () => {
      await subject().store.learnLimit?.(BUCKET, 6, WINDOW_MS);
      expect(await grantCount(request(200, { share: 0.5 }))).toBe(3);
    });
  });
}
