import { describe, expect, it } from 'vitest';
import { idealJobMs } from '../../bench/tenants/ideal-pacer.js';

describe('idealJobMs: a perfect pacer given the round trips a key really had', () => {
  it('a job within the budget takes its slowest round trip', () => {
    expect(idealJobMs([5, 40, 10], 3, 1_000)).toBe(40);
  });

  it('each further budget waits a window after the answer of the slot it reuses', () => {
    // Slots answered at 100 and 300 free at 1,100 and 1,300; the third request takes the first.
    expect(idealJobMs([100, 300, 50], 2, 1_000)).toBe(1_150);
  });

  it('takes the slot that frees first, not the one used longest ago', () => {
    // The first answer comes late (900), the second early (10): the third request goes at 1,010.
    expect(idealJobMs([900, 10, 10], 2, 1_000)).toBe(1_020);
  });

  it('the slowest chain of round trips decides, not their mean', () => {
    // Three budgets of one: 500 + 1,000 + 10 + 1,000 + 10.
    expect(idealJobMs([500, 10, 10], 1, 1_000)).toBe(2_520);
    // Two slots whose first round trips differ: 2,520, where the mean round trip (92 ms) would
    // say 2 x (1,000 + 92) + 92 = 2,275, short of what any pacer could do.
    expect(idealJobMs([500, 10, 10, 10, 10, 10], 2, 1_000)).toBe(2_520);
  });
});

describe('idealJobMs with the calls the app keeps in flight', () => {
  it('a request waits for a free caller as well as a free slot', () => {
    // Budget 4, two callers: two rounds of two, 100 ms each; no window to wait.
    expect(idealJobMs([100, 100, 100, 100], 4, 1_000, 2)).toBe(200);
    // Budget 2, two callers: the third waits for its slot (a window after the first answer).
    expect(idealJobMs([100, 100, 100], 2, 1_000, 2)).toBe(1_200);
  });
});
