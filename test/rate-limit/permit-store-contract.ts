import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import type { AcquireRequest, AcquireResult, PermitStore } from '../../src/rate-limit/permit-store.js';
import { describeAcquireManyContract } from './acquire-many-contract.js';
import { describeBatchContract } from './batch-contract.js';
import { describeLaneAndLimitContract } from './lane-contract.js';
import { VirtualClock } from './virtual-clock.js';

/** A store opened for one test, and how to dispose of it. */
export interface StoreUnderTest {
  store: PermitStore;
  close(): Promise<void>;
}

/** Opens a fresh, empty store that reads `now` as its clock. */
export type OpenStore = (now: () => number) => Promise<StoreUnderTest>;

const WINDOW_MS = 1_000;
const LEASE_MS = 5_000;
const MUTATIONS = bucketName('contract-key-a', 'mutations');
const QUERIES = bucketName('contract-key-a', 'queries');
const OTHER_KEY_MUTATIONS = bucketName('contract-key-b', 'mutations');

/**
 * The rules of `PermitStore` (src/rate-limit/permit-store.ts), run against any store on a virtual
 * clock: call it inside a `describe` of the store's test file.
 */
export function describePermitStoreContract(open: OpenStore): void {
  let clock: VirtualClock;
  let subject: StoreUnderTest;
  let store: PermitStore;

  beforeEach(async () => {
    clock = new VirtualClock();
    subject = await open(clock.now);
    store = subject.store;
  });
  afterEach(() => subject.close());

  const request = (limit: number, overrides: Partial<AcquireRequest> = {}): AcquireRequest => ({
    bucket: MUTATIONS,
    limit,
    windowMs: WINDOW_MS,
    leaseMs: LEASE_MS,
    ...overrides,
  });

  async function grant(acquire: AcquireRequest): Promise<string> {
    const result = await store.tryAcquire(acquire);
    if (!result.granted) throw new Error(`expected a permit, got ${JSON.stringify(result)}`);
    return result.permitId;
  }

  async function grantAll(acquire: AcquireRequest, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) ids.push(await grant(acquire));
    return ids;
  }

  const refused = (retryAfterMs: number, paused = false): AcquireResult => ({ granted: false, retryAfterMs, paused });

  /** The store's decision, without the applied limit it reports (checked on its own below). */
  async function ask(acquire: AcquireRequest): Promise<AcquireResult> {
    const result = await store.tryAcquire(acquire);
    if (result.granted) return { granted: true, permitId: result.permitId };
    return { granted: false, retryAfterMs: result.retryAfterMs, paused: result.paused };
  }

  describe('a full burst up to the limit goes out at once', () => {
    it('grants `limit` permits at the same instant, each with its own id', async () => {
      const ids = await grantAll(request(5), 5);
      expect(new Set(ids).size).toBe(5);
    });
  });

  describe('the limit+1-th request waits until enough counted requests leave', () => {
    it('refuses it with retryAfterMs = the time until the earliest answer is windowMs old', async () => {
      const [first, second, third] = await grantAll(request(3), 3);
      clock.advance(100);
      await store.release(MUTATIONS, second ?? '', WINDOW_MS);
      clock.advance(50);
      await store.release(MUTATIONS, first ?? '', WINDOW_MS);
      clock.advance(50);
      await store.release(MUTATIONS, third ?? '', WINDOW_MS);
      clock.advance(100);
      expect(await ask(request(3))).toEqual(refused(800));
      clock.advance(799);
      expect(await ask(request(3))).toEqual(refused(1));
      clock.advance(1);
      await grant(request(3));
      expect(await ask(request(3))).toEqual(refused(50));
    });
  });

  describe('in-flight requests count until released', () => {
    it('an unreleased permit counts beyond windowMs, and a refusal points at its lease end', async () => {
      await grant(request(1));
      clock.advance(3 * WINDOW_MS);
      expect(await ask(request(1))).toEqual(refused(LEASE_MS - 3 * WINDOW_MS));
    });

    it('answered ones free first: the refusal points at the answered permit while others are in flight', async () => {
      const [, second] = await grantAll(request(3), 3);
      clock.advance(100);
      await store.release(MUTATIONS, second ?? '', WINDOW_MS);
      expect(await ask(request(3))).toEqual(refused(WINDOW_MS));
    });
  });

  describe('answered requests count until windowMs after the response, not after the send', () => {
    it('a request answered at t blocks until exactly t + windowMs', async () => {
      const permit = await grant(request(1));
      clock.advance(2_500);
      await store.release(MUTATIONS, permit, WINDOW_MS);
      clock.advance(WINDOW_MS - 1);
      expect(await ask(request(1))).toEqual(refused(1));
      clock.advance(1);
      await grant(request(1));
    });
  });

  describe('leases: a permit not released within leaseMs counts as answered at the lease end', () => {
    it('blocks until the lease end, then for windowMs more', async () => {
      await grant(request(1, { leaseMs: 300 }));
      clock.advance(299);
      expect(await ask(request(1, { leaseMs: 300 }))).toEqual(refused(1));
      clock.advance(1);
      expect(await ask(request(1, { leaseMs: 300 }))).toEqual(refused(WINDOW_MS));
      clock.advance(WINDOW_MS - 1);
      expect(await ask(request(1, { leaseMs: 300 }))).toEqual(refused(1));
      clock.advance(1);
      await grant(request(1, { leaseMs: 300 }));
    });

    it('a holder that never releases blocks the whole budget for at most leaseMs + windowMs', async () => {
      await grantAll(request(4, { leaseMs: 300 }), 4);
      clock.advance(300 + WINDOW_MS);
      await grantAll(request(4, { leaseMs: 300 }), 4);
    });

    it.each([
      ['with no acquire between the lease end and the release', false],
      ['after an acquire already counted the lease as answered', true],
    ])('a release after the lease ended counts the request until windowMs after that late answer (%s)', async (_, acquireBetween) => {
      const permit = await grant(request(1, { leaseMs: 300 }));
      clock.advance(400);
      if (acquireBetween) expect(await ask(request(1, { leaseMs: 300 }))).toEqual(refused(900));
      clock.advance(100);
      await store.release(MUTATIONS, permit, WINDOW_MS);
      clock.advance(WINDOW_MS - 1);
      expect(await ask(request(1, { leaseMs: 300 }))).toEqual(refused(1));
      clock.advance(1);
      await grant(request(1, { leaseMs: 300 }));
    });
  });

  describe('release', () => {
    it('releasing an unknown permit, or one of an unused bucket, changes nothing', async () => {
      await grant(request(2));
      await store.release(MUTATIONS, 'no-such-permit', WINDOW_MS);
      await store.release(bucketName('never-used-key', 'queries'), 'no-such-permit', WINDOW_MS);
      await grant(request(2));
      expect(await ask(request(2))).toEqual(refused(LEASE_MS));
    });
  });

  describe('giveBack: "the request never left: the permit stops counting now"', () => {
    async function giveBack(bucket: string, permitId: string): Promise<void> {
      if (store.giveBack === undefined) throw new Error('the store has no giveBack');
      await store.giveBack(bucket, permitId);
    }

    it('frees its slot at once, where a release would hold it for a window', async () => {
      const [first, second] = await grantAll(request(2), 2);
      await store.release(MUTATIONS, first ?? '', WINDOW_MS);
      await giveBack(MUTATIONS, second ?? '');
      await grant(request(2));
      expect(await ask(request(2))).toEqual(refused(WINDOW_MS));
    });

    it('leaves the bucket as if the permit had never been granted (background permits, interactive traffic present)', async () => {
      const background = (bucket: string): AcquireRequest => request(10, { bucket, lane: 'background', reserve: 4 });
      const countGranted = async (bucket: string): Promise<number> => {
        let granted = 0;
        while (granted < 20 && (await store.tryAcquire(background(bucket))).granted) granted += 1;
        return granted;
      };
      await grant(request(10, { bucket: OTHER_KEY_MUTATIONS }));
      await grant(request(10));
      for (const permit of await grantAll(background(MUTATIONS), 3)) await giveBack(MUTATIONS, permit);
      const untouched = await countGranted(OTHER_KEY_MUTATIONS);
      expect(untouched).toBeGreaterThan(3);
      expect(await countGranted(MUTATIONS)).toBe(untouched);
    });

    it("tells the bucket's onRelease listeners, with givenBack: true (a release says false)", async () => {
      const heard: Array<boolean | undefined> = [];
      store.onRelease?.(MUTATIONS, (givenBack) => heard.push(givenBack));
      const [released, givenBack] = await grantAll(request(2), 2);
      await store.release(MUTATIONS, released ?? '', WINDOW_MS);
      await giveBack(MUTATIONS, givenBack ?? '');
      expect(heard).toEqual(store.onRelease === undefined ? [] : [false, true]);
    });

    it('a permit already released, or unknown, is left as it is: a released request still counts for its window', async () => {
      const released = await grant(request(1));
      clock.advance(100);
      await store.release(MUTATIONS, released, WINDOW_MS);
      await giveBack(MUTATIONS, released);
      await giveBack(MUTATIONS, 'no-such-permit');
      await giveBack(bucketName('never-used-key', 'queries'), 'no-such-permit');
      expect(await ask(request(1))).toEqual(refused(WINDOW_MS));
    });
  });

  describe('pause after a 429', () => {
    it('refuses even with budget left, with paused: true and retryAfterMs until the pause ends', async () => {
      await store.pause(MUTATIONS, clock.now() + 500);
      expect(await ask(request(10))).toEqual(refused(500, true));
      clock.advance(500);
      await grantAll(request(10), 10);
    });

    it('a pause never shortens a longer pause', async () => {
      await store.pause(MUTATIONS, clock.now() + 1_000);
      await store.pause(MUTATIONS, clock.now() + 200);
      clock.advance(500);
      expect(await ask(request(10))).toEqual(refused(500, true));
    });

    it('a longer pause extends a shorter one', async () => {
      await store.pause(MUTATIONS, clock.now() + 200);
      await store.pause(MUTATIONS, clock.now() + 800);
      expect(await ask(request(10))).toEqual(refused(800, true));
    });

    it('a pause that already ended changes nothing', async () => {
      await store.pause(MUTATIONS, clock.now() - 1_000);
      await grant(request(1));
    });

    it('a pause stops only its own bucket', async () => {
      await store.pause(MUTATIONS, clock.now() + 500);
      await grantAll(request(2, { bucket: QUERIES }), 2);
      await grantAll(request(2, { bucket: OTHER_KEY_MUTATIONS }), 2);
    });
  });

  describe('limit changes', () => {
    it('a lower limit refuses until count - limit + 1 counted requests have left', async () => {
      const ids = await grantAll(request(5), 5);
      for (const id of ids) {
        clock.advance(1);
        await store.release(MUTATIONS, id, WINDOW_MS);
      }
      // Answers at +1..+5 count until +1001..+1005; with limit 2, four of the five must leave.
      expect(await ask(request(2))).toEqual(refused(WINDOW_MS - 1));
      clock.advance(WINDOW_MS - 1);
      await grant(request(2));
    });

    it('a lower limit held by in-flight requests points at the earliest lease end', async () => {
      await grant(request(3));
      clock.advance(10);
      await grant(request(3));
      clock.advance(10);
      const third = await grant(request(3));
      clock.advance(10);
      await store.release(MUTATIONS, third, WINDOW_MS);
      expect(await ask(request(1))).toEqual(refused(LEASE_MS - 30));
    });

    it('a higher limit grants the difference at once', async () => {
      await grantAll(request(2), 2);
      await grantAll(request(4), 2);
      expect(await ask(request(4))).toEqual(refused(LEASE_MS));
    });
  });

  describe('a permit says how many requests the bucket counts with it (what got through, after a 429 from foreign traffic)', () => {
    const counted = async (acquire: AcquireRequest): Promise<number | undefined> => {
      const result = await store.tryAcquire(acquire);
      if (!result.granted) throw new Error(`expected a permit, got ${JSON.stringify(result)}`);
      return result.counted;
    };

    it('counts in-flight and answered requests of every client of the bucket, this one included', async () => {
      expect(await counted(request(10))).toBe(1);
      const [answered] = await grantAll(request(10), 2);
      await store.release(MUTATIONS, answered ?? '', WINDOW_MS);
      expect(await counted(request(10, { lane: 'background' }))).toBe(4);
      expect(await counted(request(10, { bucket: QUERIES }))).toBe(1);
    });

    it('no longer counts a request a window after its answer', async () => {
      const [first] = await grantAll(request(10), 2);
      await store.release(MUTATIONS, first ?? '', WINDOW_MS);
      clock.advance(WINDOW_MS);
      expect(await counted(request(10))).toBe(2);
    });
  });

  describe('buckets are independent', () => {
    it('mutations and queries of one key have separate budgets', async () => {
      await grantAll(request(3), 3);
      await grantAll(request(3, { bucket: QUERIES }), 3);
      expect(await ask(request(3, { bucket: QUERIES }))).toEqual(refused(LEASE_MS));
    });

    it('two API keys have separate budgets', async () => {
      await grantAll(request(3), 3);
      await grantAll(request(3, { bucket: OTHER_KEY_MUTATIONS }), 3);
    });
  });

  describe('onRelease', () => {
    it("wakes the released permit's bucket only, until unsubscribed", async () => {
      const woken: string[] = [];
      const unsubscribe = store.onRelease?.(MUTATIONS, () => woken.push('mutations'));
      store.onRelease?.(QUERIES, () => woken.push('queries'));
      const [first, second] = await grantAll(request(2), 2);
      await store.release(MUTATIONS, first ?? '', WINDOW_MS);
      expect(woken).toEqual(['mutations']);
      unsubscribe?.();
      await store.release(MUTATIONS, second ?? '', WINDOW_MS);
      expect(woken).toEqual(['mutations']);
    });

    it('a release of an unknown permit wakes nobody', async () => {
      let woken = 0;
      store.onRelease?.(MUTATIONS, () => (woken += 1));
      await store.release(MUTATIONS, 'no-such-permit', WINDOW_MS);
      expect(woken).toBe(0);
    });
  });

  describeLaneAndLimitContract(() => ({ store, clock }));
  describeBatchContract(() => ({ store, clock }));
  describeAcquireManyContract(() => ({ store, clock }));

  describe('requests no store can decide on', () => {
    it.each([
      ['limit', { limit: 0 }],
      ['windowMs', { windowMs: -1 }],
      ['leaseMs', { leaseMs: Number.NaN }],
    ])('rejects a non-positive or non-integer %s', async (field, overrides) => {
      await expect(store.tryAcquire(request(1, overrides))).rejects.toThrow(new RegExp(`${field} must be a positive integer`));
    });

    it.each([
      ['lane', { lane: 'urgent' as never }],
      ['reserve', { reserve: -1 }],
      ['share', { share: 0 }],
      ['share', { share: 1.5 }],
      ['waiter', { waiter: '' }],
      ['batch', { batch: 'yes' as never }],
    ])('rejects an unknown or out-of-range %s', async (field, overrides) => {
      await expect(store.tryAcquire(request(1, overrides))).rejects.toThrow(new RegExp(`${field} is not valid`));
    });

    it('refuses to learn a limit below 1', async () => {
      await expect(store.learnLimit?.(MUTATIONS, 0, WINDOW_MS)).rejects.toThrow(/positive integer/);
    });
  });
}
