import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { WAITER_HOLD_GRACE_MS } from '../../src/rate-limit/lane-rule.js';
import type { AcquireRequest, PermitStore } from '../../src/rate-limit/permit-store.js';
import type { VirtualClock } from './virtual-clock.js';

const WINDOW_MS = 1_000;
const LEASE_MS = 5_000;
const BUCKET = bucketName('lane-contract-key', 'mutations');

/**
 * The lane and learnt-limit rules of `PermitStore` (src/rate-limit/permit-store.ts), on a virtual
 * clock; called by the shared contract for every store.
 */
export function describeLaneAndLimitContract(subject: () => { store: PermitStore; clock: VirtualClock }): void {
  const request = (limit: number, overrides: Partial<AcquireRequest> = {}): AcquireRequest => ({ bucket: BUCKET, limit, windowMs: WINDOW_MS, leaseMs: LEASE_MS, ...overrides });
  const background = (limit: number, overrides: Partial<AcquireRequest> = {}): AcquireRequest => request(limit, { lane: 'background', ...overrides });
  const interactive = (limit: number, overrides: Partial<AcquireRequest> = {}): AcquireRequest => request(limit, { lane: 'interactive', ...overrides });

  async function grant(acquire: AcquireRequest): Promise<string> {
    const result = await subject().store.tryAcquire(acquire);
    if (!result.granted) throw new Error(`expected a permit, got ${JSON.stringify(result)}`);
    return result.permitId;
  }
  async function grantCount(acquire: AcquireRequest, most = 50): Promise<number> {
    for (let granted = 0; granted < most; granted += 1) {
      if (!(await subject().store.tryAcquire(acquire)).granted) return granted;
    }
    return most;
  }
  async function refusal(acquire: AcquireRequest): Promise<number> {
    const result = await subject().store.tryAcquire(acquire);
    if (result.granted) throw new Error('expected a refusal, got a permit');
    return result.retryAfterMs;
  }
  const advance = (ms: number): void => subject().clock.advance(ms);

  describe('lanes: an interactive request overtakes background ones', () => {
    it('a refused interactive queue holds one slot against background requests: they take the rest, it takes its own', async () => {
      const [first, second] = [await grant(background(2)), await grant(background(2))];
      advance(100);
      await subject().store.release(BUCKET, first, WINDOW_MS);
      await subject().store.release(BUCKET, second, WINDOW_MS);
      advance(100);
      expect(await refusal(interactive(2, { waiter: 'queue-a' }))).toBe(900);
      advance(900); // both slots free now
      expect(await grantCount(background(2))).toBe(1);
      await grant(interactive(2, { waiter: 'queue-a' }));
      // Granted: the hold is gone, and the budget is simply full.
      expect(await grantCount(background(2))).toBe(0);
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

    it('while interactive traffic is present (asked within the window), background holds at most limit - reserve slots and leaves one free', async () => {
      await grant(interactive(5));
      // Background stops at 3 (limit 5 - reserve 2); counted, 4 of 5: one stays free.
      expect(await grantCount(background(5, { reserve: 2 }))).toBe(3);
      // Refused background work asks again when the presence may have ended.
      expect(await refusal(background(5, { reserve: 2 }))).toBe(WINDOW_MS);
      expect(await grantCount(interactive(5))).toBe(1);
    });

    it('an interactive call gets the slot its predecessor leaves, not background work', async () => {
      const first = await grant(interactive(3));
      await subject().store.release(BUCKET, first, WINDOW_MS);
      expect(await grantCount(background(3, { reserve: 1 }))).toBe(1); // counted 2 of 3: one free
      advance(WINDOW_MS / 2);
      await grant(interactive(3)); // takes the free one
      advance(WINDOW_MS / 2); // the first interactive call's count ends: a slot frees
      expect(await grantCount(background(3, { reserve: 1 }))).toBe(0);
      await grant(interactive(3));
    });

    it('the cap of limit - reserve holds for the first window of interactive traffic; then background only leaves one slot free', async () => {
      await subject().store.release(BUCKET, await grant(interactive(6)), WINDOW_MS); // traffic starts at 0
      expect(await grantCount(background(6, { reserve: 3 }))).toBe(3); // capped at 6 - 3
      advance(WINDOW_MS / 2);
      await subject().store.release(BUCKET, await grant(interactive(6)), WINDOW_MS); // still present
      advance(WINDOW_MS / 2); // the first window is over; the first interactive call's count too
      // Counted: 3 background + 1 interactive; one slot stays free: 1 more background permit.
      expect(await grantCount(background(6, { reserve: 3 }))).toBe(1);
    });

    it('a background burst that starts while interactive traffic is present is capped for its first window', async () => {
      await subject().store.release(BUCKET, await grant(interactive(6)), WINDOW_MS);
      advance(WINDOW_MS - 100);
      await subject().store.release(BUCKET, await grant(interactive(6)), WINDOW_MS); // present until 1900
      advance(200); // the interactive traffic's first window is over; one interactive call counts
      expect(await grantCount(background(6, { reserve: 3 }))).toBe(3); // a new burst: capped again
    });

    it('the reserve lifts once no interactive request asked for a window', async () => {
      await subject().store.release(BUCKET, await grant(interactive(3)), WINDOW_MS);
      expect(await grantCount(background(3, { reserve: 1 }))).toBe(1);
      advance(WINDOW_MS);
      expect(await grantCount(background(3, { reserve: 1 }))).toBe(2);
    });

    it('without interactive traffic, background uses the whole limit', async () => {
      expect(await grantCount(background(4, { reserve: 2 }))).toBe(4);
    });

    it('the reserve never takes the last slot from background work (at most limit - 1)', async () => {
      await subject().store.pause(BUCKET, subject().clock.now() + 100);
      await refusal(interactive(2)); // present, holding nothing
      advance(100);
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
