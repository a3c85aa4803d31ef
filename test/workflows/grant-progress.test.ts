import { describe, expect, it } from 'vitest';
import { ProgressTracker } from '../../src/workflows/grant-to-many/progress-tracker.js';

const budget = { limit: 200, windowMs: 60_000 };

describe('grant progress: ETA from the remaining budget', () => {
  it('when the window is spent, the rest goes at `limit` per window: remaining / limit * windowMs', () => {
    const tracker = new ProgressTracker({ total: 1000, budget, startedAt: 0 });
    for (let n = 0; n < 200; n += 1) tracker.record('created', 1000);
    const progress = tracker.snapshot(1000);
    expect(progress).toMatchObject({ done: 200, total: 1000, budgetBound: true });
    expect(progress.etaMs).toBe((800 / 200) * 60_000);
  });

  it('room left in the current window goes out at once and is not waited for', () => {
    const tracker = new ProgressTracker({ total: 1000, budget, startedAt: 0 });
    for (let n = 0; n < 50; n += 1) tracker.record('created', 1000);
    // 150 more fit in this window; 800 then need 4 windows.
    expect(tracker.snapshot(1000).etaMs).toBe((800 / 200) * 60_000);
  });

  it('answers older than one window no longer hold budget', () => {
    const tracker = new ProgressTracker({ total: 400, budget, startedAt: 0 });
    for (let n = 0; n < 200; n += 1) tracker.record('created', 1000);
    // Still in the window: the other 200 wait for it to slide.
    expect(tracker.snapshot(60_999)).toMatchObject({ budgetBound: true, etaMs: 60_000 });
    // A window later the remaining 200 all fit: the budget no longer bounds the ETA; the observed
    // rate (200 answers in the 60 s since the first) does.
    const later = tracker.snapshot(61_000);
    expect(later.budgetBound).toBe(false);
    expect(later.etaMs).toBeCloseTo(60_000, 6);
  });

  it('a server slower than the budget sets the ETA by the observed rate', () => {
    const tracker = new ProgressTracker({ total: 300, budget, startedAt: 0 });
    // 10 answers over 10 s: 1 per second, far below 200 per minute.
    for (let n = 1; n <= 10; n += 1) tracker.record('created', n * 1000);
    const progress = tracker.snapshot(11_000);
    expect(progress.budgetBound).toBe(false);
    expect(progress.ratePerSecond).toBe(1);
    expect(progress.etaMs).toBe(290_000);
  });

  it('skipped and invalid rows cost no request: they count as done but not in the rate', () => {
    const tracker = new ProgressTracker({ total: 10, budget, startedAt: 0 });
    tracker.record('skipped', 1);
    tracker.record('invalid', 2);
    const progress = tracker.snapshot(1000);
    expect(progress).toMatchObject({ done: 2, ratePerSecond: 0, counts: { skipped: 1, invalid: 1 } });
  });

  it('without a total there is no ETA; without pacing only the observed rate counts', () => {
    expect(new ProgressTracker({ total: undefined, budget, startedAt: 0 }).snapshot(5).etaMs).toBeUndefined();
    const unpaced = new ProgressTracker({ total: 4, budget: undefined, startedAt: 0 });
    unpaced.record('created', 0);
    unpaced.record('created', 1000);
    expect(unpaced.snapshot(1000)).toMatchObject({ etaMs: 1000, budgetBound: false });
  });
});
