import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import type { AcquireRequest, AcquireResult, PermitStore } from '../../src/rate-limit/permit-store.js';
import { CONTRACT_WINDOW_MS as WINDOW_MS, contractRequests } from './contract-requests.js';
import type { VirtualClock } from './virtual-clock.js';

const MANY = bucketName('acquire-many-contract-key', 'mutations');
const ONE_BY_ONE = bucketName('acquire-many-contract-twin', 'mutations');

/** What a sequence of asks got: the permits granted, then the refusal that ended it (if any). */
interface Outcome {
  granted: number;
  counted: (number | undefined)[];
  refusal: { retryAfterMs: number; paused: boolean } | undefined;
}

function outcome(results: readonly AcquireResult[]): Outcome {
  const granted = results.filter((result) => result.granted);
  const refusal = results.find((result) => !result.granted);
  return {
    granted: granted.length,
    counted: granted.map((result) => result.counted),
    refusal: refusal === undefined || refusal.granted ? undefined : { retryAfterMs: refusal.retryAfterMs, paused: refusal.paused },
  };
}

/**
 * `PermitStore.tryAcquireMany` (optional): `count` permits in one call, exactly what `count` calls of
 * `tryAcquire` made at the same instant would get, one after another with `demand` one less each
 * time (what a queue of waiting calls asks). Each case builds the same state in two buckets of one
 * store, asks one bucket for many permits at once and the other one by one, and compares.
 */
export function describeAcquireManyContract(subject: () => { store: PermitStore; clock: VirtualClock }): void {
  const many = contractRequests(subject, MANY);
  const oneByOne = contractRequests(subject, ONE_BY_ONE);

  /** The permits `count` asks one after another get, stopping at the first refusal. */
  async function askOneByOne(request: AcquireRequest, count: number): Promise<AcquireResult[]> {
    const results: AcquireResult[] = [];
    for (let index = 0; index < count; index += 1) {
      const result = await subject().store.tryAcquire({ ...request, demand: Math.max(1, (request.demand ?? 1) - index) });
      if (result.granted || index === 0) results.push(result);
      if (!result.granted) break;
    }
    return results;
  }

  /**
   * Builds the state in both buckets at one instant, lets `laterMs` pass, then asks one bucket for
   * `count` at once and the other one by one.
   */
  async function compare(setUp: (requests: typeof many) => Promise<void>, ask: (requests: typeof many) => AcquireRequest, count: number, laterMs = 0): Promise<{ many: Outcome; oneByOne: Outcome }> {
    const { store, clock } = subject();
    if (store.tryAcquireMany === undefined) throw new Error('the store has no tryAcquireMany');
    await setUp(many);
    await setUp(oneByOne);
    clock.advance(laterMs);
    const atOnce = await store.tryAcquireMany(ask(many), count);
    const sequential = await askOneByOne(ask(oneByOne), count);
    // What the asks left for later requests (the interactive demand and bursts they recorded, a
    // ramp they started) is the same too: background work asking next gets as much in both.
    const backgroundAfter = (requests: typeof many) => requests.grantCount(requests.request(ask(requests).limit, { lane: 'background' }));
    expect(await backgroundAfter(many)).toBe(await backgroundAfter(oneByOne));
    return { many: outcome(atOnce), oneByOne: outcome(sequential) };
  }

  describe('tryAcquireMany: "count" permits in one call, what as many requests made at that instant would get', () => {
    it.each([
      ['interactive, an empty bucket, fewer asked than the limit', 20, 3],
      ['interactive, more asked than the limit', 5, 9],
      ['interactive, one asked', 5, 1],
    ])('%s: the same permits, each with its own count', async (_, limit, count) => {
      const { many: atOnce, oneByOne: sequential } = await compare(async () => undefined, (requests) => requests.interactive(limit, { demand: count }), count);
      expect(atOnce).toEqual(sequential);
      expect(atOnce.granted).toBe(Math.min(limit, count));
    });

    it('the lane rule: background work with a reserve and a ramp, after interactive calls', async () => {
      const { many: atOnce, oneByOne: sequential } = await compare(
        async (requests) => {
          await requests.grant(requests.interactive(12));
          await requests.grant(requests.interactive(12));
        },
        (requests) => requests.request(12, { lane: 'background', reserve: 2, ramp: 4 }),
        12,
        50,
      );
      expect(atOnce).toEqual(sequential);
      expect(atOnce.granted).toBeGreaterThan(1);
      expect(atOnce.granted).toBeLessThan(10);
    });

    it('batch mode takes every free slot', async () => {
      const { many: atOnce, oneByOne: sequential } = await compare(async () => undefined, (requests) => requests.request(8, { lane: 'background', batch: true }), 20);
      expect(atOnce).toEqual(sequential);
      expect(atOnce.granted).toBe(8);
    });

    it('a learnt limit lower than the request\'s applies', async () => {
      const { many: atOnce, oneByOne: sequential } = await compare(
        async (requests) => {
          const bucket = requests.request(1).bucket;
          await subject().store.learnLimit?.(bucket, 3, 10 * WINDOW_MS);
        },
        (requests) => requests.interactive(10),
        10,
      );
      expect(atOnce).toEqual(sequential);
      expect(atOnce.granted).toBe(subject().store.learnLimit === undefined ? 10 : 3);
    });

    it('a full bucket: the one refusal tryAcquire gives, with its retryAfterMs', async () => {
      const { many: atOnce, oneByOne: sequential } = await compare(
        async (requests) => {
          for (let index = 0; index < 4; index += 1) await requests.grant(requests.interactive(4));
        },
        (requests) => requests.interactive(4),
        3,
        100,
      );
      expect(atOnce).toEqual(sequential);
      expect(atOnce).toMatchObject({ granted: 0, refusal: { paused: false } });
    });

    it('a paused bucket: the refusal says paused, nothing granted', async () => {
      const { many: atOnce, oneByOne: sequential } = await compare(
        async (requests) => subject().store.pause(requests.request(1).bucket, subject().clock.now() + 700),
        (requests) => requests.interactive(5),
        5,
      );
      expect(atOnce).toEqual(sequential);
      expect(atOnce.refusal).toEqual({ retryAfterMs: 700, paused: true });
    });

    it('never more than the limit: after a partial grant the next request is refused, and each permit is released on its own', async () => {
      const { store } = subject();
      await many.grant(many.interactive(6));
      const results = (await store.tryAcquireMany?.(many.interactive(6), 10)) ?? [];
      const ids = results.flatMap((result) => (result.granted ? [result.permitId] : []));
      expect(ids).toHaveLength(5);
      expect(new Set(ids).size).toBe(5);
      expect((await store.tryAcquire(many.interactive(6))).granted).toBe(false);
      await store.giveBack?.(MANY, ids[0] ?? '');
      for (const id of ids.slice(1)) await store.release(MANY, id, WINDOW_MS);
      // The permit given back freed its slot at once (a store without giveBack: a window later).
      many.advance(store.giveBack === undefined ? WINDOW_MS + 1 : 1);
      expect((await store.tryAcquire(many.interactive(6))).granted).toBe(true);
    });

    it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '2', undefined])('a count of %s is refused with a RangeError naming it, nothing granted', async (count) => {
      const { store } = subject();
      await expect(store.tryAcquireMany?.(many.interactive(3), count as number)).rejects.toThrow(`count must be a positive integer, got ${typeof count === 'string' ? `"${count}"` : String(count)}.`);
      expect(await many.grantCount(many.interactive(3))).toBe(3);
    });

    it.each([undefined, null, 'bucket'])('a request of %s is refused with a RangeError saying what a request is, not a TypeError', async (request) => {
      const { store } = subject();
      await expect(store.tryAcquireMany?.(request as never, 2)).rejects.toThrow(/the request must be an object \(bucket, limit, windowMs, leaseMs\)/);
      await expect(store.tryAcquire(request as never)).rejects.toThrow(RangeError);
    });
  });
}
