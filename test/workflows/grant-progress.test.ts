import { describe, expect, it } from 'vitest';
import { ProgressTracker } from '../../src/workflows/grant-to-many/progress-tracker.js';

const budget = { limit: 200, windowMs: 60_000 };

/** `count` answers at time `at`. */
function answers(tracker: ProgressTracker, count: number, at: number): void {
  for (let n = 0; n < count; n += 1) tracker.record('created', at, true);
}

describe('grant progress: ETA from the remaining budget', () => {
  it('with the window spent, the rest goes at `limit` per window: remaining / limit * windowMs', () => {
    const tracker = new ProgressTracker({ total: 1000, budget, startedAt: 0 });
    answers(tracker, 200, 1000);
    const progress = tracker.snapshot(1000);
    expect(progress).toMatchObject({ done: 200, total: 1000, budgetBound: true });
    expect(progress.etaMs).toBe((800 / 200) * 60_000);
  });

  it('room left in the current window goes out at once and is not waited for', () => {
    const tracker = new ProgressTracker({ total: 1000, budget, startedAt: 0 });
    answers(tracker, 50, 1000);
    // 150 more fit in this window; the other 800 need 4 more windows.
    expect(tracker.snapshot(1000).etaMs).toBe(4 * 60_000);
  });

  it('a slot frees one window after its answer: the last grants wait exactly until then', () => {
    const tracker = new ProgressTracker({ total: 400, budget, startedAt: 0 });
    answers(tracker, 200, 1000);
    // The remaining 200 go when the first answers leave the window, at 61 s.
    expect(tracker.snapshot(31_000)).toMatchObject({ budgetBound: true, etaMs: 30_000 });
    // Once they have left, everything fits: nothing to wait for.
    expect(tracker.snapshot(61_000)).toMatchObject({ budgetBound: false, etaMs: 0 });
  });

  it('a server slower than the budget sets the ETA by the recent answer rate', () => {
    const tracker = new ProgressTracker({ total: 300, budget, startedAt: 0 });
    // 10 answers, one per second: far below 200 per minute.
    for (let n = 1; n <= 10; n += 1) tracker.record('created', n * 1000, true);
    const progress = tracker.snapshot(10_000);
    expect(progress.budgetBound).toBe(false);
    expect(progress.ratePerSecond).toBe(1);
    expect(progress.etaMs).toBe(290_000);
  });

  it('skipped and invalid rows cost no request: they count as done but not in the rate', () => {
    const tracker = new ProgressTracker({ total: 10, budget, startedAt: 0 });
    tracker.record('skipped', 1, false);
    tracker.record('invalid', 2, false);
    expect(tracker.snapshot(1000)).toMatchObject({ done: 2, ratePerSecond: 0, counts: { skipped: 1, invalid: 1 } });
  });

  it('a failure the journal holds, not sent again on resume, costs no request: not in the rate nor the ETA\'s answer times', () => {
    const tracker = new ProgressTracker({ total: 10, budget: undefined, startedAt: 0 });
    for (let row = 0; row < 3; row += 1) tracker.record('failed', 0, false);
    expect(tracker.snapshot(1000)).toMatchObject({ done: 3, sent: 0, ratePerSecond: 0, etaMs: undefined, counts: { failed: 3 } });
    // Two answers 11.2 s later: the rate is theirs, not that of the three rows that sent nothing.
    tracker.record('created', 11_200, true);
    tracker.record('created', 12_200, true);
    expect(tracker.snapshot(12_200)).toMatchObject({ done: 5, sent: 2, etaMs: 5_000 });
  });

  it('without a total there is no ETA; without pacing only the answer rate counts', () => {
    expect(new ProgressTracker({ total: undefined, budget, startedAt: 0 }).snapshot(5).etaMs).toBeUndefined();
    const unpaced = new ProgressTracker({ total: 4, budget: undefined, startedAt: 0 });
    unpaced.record('created', 0, true);
    unpaced.record('created', 1000, true);
    expect(unpaced.snapshot(1000)).toMatchObject({ etaMs: 2000, budgetBound: false });
  });
});
