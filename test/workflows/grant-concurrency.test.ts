import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminClient, DEFAULTS, MemoryPermitStore, type CallOptions, type GrantResult, type MemberRef } from '../../src/index.js';
import { GRANT_TO_MANY_DEFAULTS, grantCouponToMany, type GrantCouponClient } from '../../src/workflows/grant-to-many.js';
import { grant } from '../support/fixtures.js';
import { grantFor } from './support/scripted-grants.js';

const members = (count: number) => Array.from({ length: count }, (_, n) => ({ email: `member-${n}@example.com` }));

/** A grantCoupon that answers each call after a macrotask and counts the calls in flight. */
class CountingGrants implements GrantCouponClient {
  inFlight = 0;
  maxInFlight = 0;
  sent = 0;

  async grantCoupon(_couponId: string, member: MemberRef, _options?: CallOptions): Promise<GrantResult> {
    this.sent += 1;
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    this.inFlight -= 1;
    return { grant: grantFor(member, this.sent), created: true };
  }
}

describe('grantCouponToMany: a bounded default concurrency (each grant in flight holds a connection)', () => {
  it('keeps at most 64 grants in flight by default, whatever the budget (a self-hosted 100,000 per minute)', async () => {
    const client = new CountingGrants();
    const summary = await grantCouponToMany(client, 'coupon-1', members(300), {}, { budget: { limit: 100_000, windowMs: 60_000 } });
    expect(summary.counts.created).toBe(300);
    expect(GRANT_TO_MANY_DEFAULTS.concurrency).toBe(64);
    expect(client.maxInFlight).toBe(64);
  });

  it('a lower mutation limit bounds it further; without pacing 16; an explicit concurrency is kept', async () => {
    const cases: Array<[budget: { limit: number; windowMs: number } | undefined, concurrency: number | undefined, expected: number]> = [
      [{ limit: 10, windowMs: 60_000 }, undefined, 10],
      [undefined, undefined, 16],
      [{ limit: 100_000, windowMs: 60_000 }, 128, 128],
    ];
    for (const [budget, concurrency, expected] of cases) {
      const client = new CountingGrants();
      await grantCouponToMany(client, 'coupon-1', members(200), concurrency === undefined ? {} : { concurrency }, { budget });
      expect(client.maxInFlight).toBe(expected);
    }
  });
});

describe('grantCouponToMany: the default concurrency still reaches the 200-per-minute budget (fake clock, fake slow server)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * Grants `count` members through a real AdminClient (real limiter, 200 mutations per minute)
   * whose fetch answers each grant `roundTripMs` after it was sent, on a fake clock. Returns when
   * each grant was sent and how long the job took, in fake milliseconds.
   */
  async function run(count: number, roundTripMs: number, concurrency?: number, interactiveReserve?: number): Promise<{ sentAt: number[]; durationMs: number; maxInFlight: number }> {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate', 'Date', 'performance'] });
    const sentAt: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const fetch: typeof globalThis.fetch = async () => {
      sentAt.push(Date.now());
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, roundTripMs));
      inFlight -= 1;
      return Response.json({ data: { createCouponGrant: { grant: grant(), created: true, errors: null } } });
    };
    const admin = new AdminClient({ apiKey: 'sk_live_concurrency', baseUrl: 'https://school.example', fetch, limits: { store: new MemoryPermitStore(), ...(interactiveReserve === undefined ? {} : { interactiveReserve }) } });
    const started = Date.now();
    let finished: number | undefined;
    const job = admin.grantCouponToMany('coupon-1', members(count), concurrency === undefined ? {} : { concurrency }).then(() => (finished = Date.now()));
    while (finished === undefined) await vi.advanceTimersByTimeAsync(250);
    await job;
    return { sentAt, durationMs: finished - started, maxInFlight };
  }

  /**
   * The most requests counted at once by the budget's rule: a request counts from when it is sent
   * until a minute after its answer (`roundTripMs` later). Sends within 60 s would not do: a job
   * that spreads its first window (the ramp) frees its slots as spread a window later, and the
   * budget is full although no 60 s holds 200 sends.
   */
  function mostCounted(sentAt: number[], roundTripMs: number): number {
    const events = sentAt.flatMap((at) => [
      { at, change: 1 },
      { at: at + roundTripMs + 60_000, change: -1 },
    ]);
    // A count that ends at the moment another starts has freed its slot for it.
    events.sort((a, b) => a.at - b.at || a.change - b.change);
    let counted = 0;
    let most = 0;
    for (const { change } of events) most = Math.max(most, (counted += change));
    return most;
  }

  it.each([3_000, 10_000])('round trips of %i ms: the budget is reached (200 counted at once), and 600 grants end at most 3 round trips after a full burst of 200 would (the ramp of its first window)', async (roundTripMs) => {
    // Without the slots kept free for interactive calls (the reserve, 2% by default: 196 a minute), the whole budget.
    const bounded = await run(600, roundTripMs, undefined, 0);
    const burst = await run(600, roundTripMs, 200, 0);
    expect(bounded.maxInFlight).toBe(64);
    expect(burst.maxInFlight).toBeGreaterThan(64);
    // The budget, not the concurrency, sets the pace: 200 requests counted at once, each until a minute after its answer.
    expect(mostCounted(bounded.sentAt, roundTripMs)).toBe(200);
    expect(mostCounted((await run(400, roundTripMs)).sentAt, roundTripMs)).toBe(200 - DEFAULTS.interactiveReserveShare * 200);
    // Only the first window ramps up: 64 in flight send its 200 in ceil(200 / 64) = 4 round trips, a burst in one.
    expect(bounded.durationMs - burst.durationMs).toBeLessThanOrEqual(3 * roundTripMs);
    // The least time for 600 under the rule is 2 x (window + round trip) + a round trip, after the
    // first grant's round trip alone. The ramp's spread first window repeats in later ones (their
    // slots free as spread): at most one window more. A ramp step refused at the very millisecond
    // it fell due used to cost a whole window each time (253 s, not 210 s, at 10 s round trips).
    const leastMs = roundTripMs + 2 * (60_000 + roundTripMs) + roundTripMs;
    expect(bounded.durationMs).toBeLessThanOrEqual(leastMs + 60_000);
  });
});
