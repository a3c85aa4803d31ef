import { describe, expect, it } from 'vitest';
import { ForeignShareBackoff } from '../../src/rate-limit/foreign-share-backoff.js';

/**
 * The share of the budget after 429s from traffic the client did not send, when the store says
 * how many requests it counted (both stores of the SDK do). Without a count, the share halves
 * (test/rate-limit/limiter.test.ts).
 */
const budget = { limit: 50, windowMs: 3_000 };

/** A burst's 429s, `count` of them 1 ms apart from `at`, each pausing until `pausedUntil`. */
function burstOf429s(backoff: ForeignShareBackoff, count: number, at: number, counted: number, pausedUntil: number): void {
  for (let index = 0; index < count; index += 1) backoff.rateLimited(budget, at + index, { counted, pausedUntil });
}

describe('ForeignShareBackoff with the store\'s count: "the 429s of one burst are all the same news"', () => {
  it('after a burst of 50 meets 25 unannounced requests, the share is the 25 that got through', () => {
    const backoff = new ForeignShareBackoff();
    burstOf429s(backoff, 25, 20, 50, 3_020);
    expect(backoff.limit(budget, 100)).toBe(25);
  });

  it('429s that arrive while the first one\'s pause lasts are one burst; one after the pause is a new one', () => {
    const backoff = new ForeignShareBackoff();
    burstOf429s(backoff, 10, 20, 50, 3_020);
    expect(backoff.limit(budget, 100)).toBe(40);
    // After the pause: a new burst of 26 sent under the share of 40, one of them refused.
    backoff.rateLimited(budget, 3_100, { counted: 26, pausedUntil: 6_100 });
    expect(backoff.limit(budget, 3_200)).toBe(25);
  });

  it('a client that had sent 151 of 200 and met one 429 keeps 150, not half the budget (no wait of a window beyond Retry-After)', () => {
    const backoff = new ForeignShareBackoff();
    const documented = { limit: 200, windowMs: 60_000 };
    backoff.rateLimited(documented, 0, { counted: 151, pausedUntil: 5_000 });
    expect(backoff.limit(documented, 5_000)).toBe(150);
  });

  it('never cuts deeper than half the share in force: a client that had sent little learns little about the room', () => {
    const backoff = new ForeignShareBackoff();
    backoff.rateLimited(budget, 0, { counted: 1, pausedUntil: 1_000 });
    expect(backoff.limit(budget, 1_000)).toBe(25);
  });
});

describe('ForeignShareBackoff with the store\'s count: "grow back only when a window passes without a 429"', () => {
  it('holds the share for a whole window after the pause ends, then grows by 1, 2, 4, ... up to the full limit', () => {
    const backoff = new ForeignShareBackoff();
    burstOf429s(backoff, 25, 0, 50, 3_000);
    expect(backoff.limit(budget, 5_999)).toBe(25); // the pause ended at 3 s: not a whole quiet window yet
    expect(backoff.limit(budget, 6_000)).toBe(26);
    expect(backoff.limit(budget, 9_000)).toBe(28);
    expect(backoff.limit(budget, 12_000)).toBe(32);
    expect(backoff.limit(budget, 15_000)).toBe(40);
    expect(backoff.limit(budget, 18_000)).toBe(50);
  });

  it('a probe that meets a 429 takes the share back and doubles the quiet windows before the next probe, up to 4', () => {
    const backoff = new ForeignShareBackoff();
    burstOf429s(backoff, 25, 0, 50, 3_000);
    // The probe of one more request (26) meets a 429 at 6 s: back to 25, next growth after 2 quiet windows.
    backoff.rateLimited(budget, 6_010, { counted: 26, pausedUntil: 9_000 });
    expect(backoff.limit(budget, 14_999)).toBe(25);
    expect(backoff.limit(budget, 15_000)).toBe(26);
    // Again: 4 quiet windows from the pause's end (21 s), then 4 again (the longest wait).
    backoff.rateLimited(budget, 15_010, { counted: 26, pausedUntil: 18_000 });
    expect(backoff.limit(budget, 29_999)).toBe(25);
    expect(backoff.limit(budget, 30_000)).toBe(26);
    backoff.rateLimited(budget, 30_010, { counted: 26, pausedUntil: 33_000 });
    expect(backoff.limit(budget, 44_999)).toBe(25);
    expect(backoff.limit(budget, 45_000)).toBe(26);
  });

  it('once the share is back to the full limit, the next 429 starts afresh (a window of quiet, then growth)', () => {
    const backoff = new ForeignShareBackoff();
    burstOf429s(backoff, 25, 0, 50, 3_000);
    backoff.rateLimited(budget, 6_010, { counted: 26, pausedUntil: 9_000 });
    expect(backoff.limit(budget, 60_000)).toBe(50);
    backoff.rateLimited(budget, 60_000, { counted: 50, pausedUntil: 63_000 });
    expect(backoff.limit(budget, 65_999)).toBe(49);
    expect(backoff.limit(budget, 66_000)).toBe(50);
  });
});
