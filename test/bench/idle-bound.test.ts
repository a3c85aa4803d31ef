import { describe, expect, it } from 'vitest';
import { idleAllowed, idleBound, idleForced } from '../../bench/qos/idle-bound.js';

const small = { limit: 20, windowMs: 2_000 };
const spec = { limit: 200, windowMs: 6_000 };
const targets = { ratioTarget: 1.03, p95Target: 3 };

describe('idleAllowed: what the bulk ratio lets go unused', () => {
  it('a job that fills its last window may leave only the ratio spare time unused', () => {
    // 120 at 20 per 2 s, round trip 100 ms: bound 5 x 2.1 s + 0.1 s = 10.6 s; 3% of it is 318 ms of every slot.
    const { allowed, slack, cycleMs } = idleAllowed(small, 100, 120, 1.03);
    expect(slack).toBe(0);
    expect(cycleMs).toBe(2_100);
    expect(allowed).toBeCloseTo((20 * 318) / 2_100, 6);
  });

  it('the slots its last window leaves unused add one cycle each', () => {
    // 121: a seventh window with 19 slots to spare; bound 12.7 s.
    const { allowed, slack } = idleAllowed(small, 100, 121, 1.03);
    expect(slack).toBe(19);
    expect(allowed).toBeCloseTo(19 + (20 * 381) / 2_100, 6);
  });
});

describe('idleForced: what keeping calls within p95 leaves unused, when nobody knows when they come', () => {
  it('a single call costs one slot kept free for every cycle of the job, where that is cheaper than spreading', () => {
    // 1,200 at 200 per 6 s: bound 5 x 6.1 s + 0.1 s = 30.6 s, 5.016 cycles; spreading would take 16.3 slots.
    const { forced, keptFree, waitMs } = idleForced({ budget: spec, roundTripMs: 100, sent: 1_200, burst: 1, calls: 10, ...targets });
    expect(waitMs).toBe(300);
    expect(keptFree).toBe(1);
    expect(forced).toBeCloseTo(30_600 / 6_100, 6);
  });

  it('a burst needs a slot for each of its calls', () => {
    const { forced, keptFree } = idleForced({ budget: spec, roundTripMs: 100, sent: 1_200, burst: 3, calls: 12, ...targets });
    expect(keptFree).toBe(3);
    expect(forced).toBeCloseTo((3 * 30_600) / 6_100, 6);
  });

  it('spreading counts over the window is cheaper than a kept slot when the job is long', () => {
    // 600 at 20 per 2 s: 3% of a 61 s bound is 1.83 s, and the 2.1 s cycle less that is shorter than the 300 ms wait.
    const { forced, keptFree } = idleForced({ budget: small, roundTripMs: 100, sent: 600, burst: 1, calls: 10, ...targets });
    expect(keptFree).toBe(0);
    expect(forced).toBe(0);
  });

  it('with 20 calls or more, p95 lets the slowest twentieth wait', () => {
    const few = idleForced({ budget: spec, roundTripMs: 100, sent: 1_200, burst: 1, calls: 19, ...targets });
    const many = idleForced({ budget: spec, roundTripMs: 100, sent: 1_200, burst: 1, calls: 40, ...targets });
    expect(many.forced).toBeCloseTo(few.forced * (38 / 40), 6);
  });
});

describe('idleBound: a conflict when forced exceeds allowed', () => {
  it('a burst of 3 at 20 per window, in a job that fills its last window, is a conflict', () => {
    expect(idleBound({ budget: small, roundTripMs: 100, sent: 120, burst: 3, calls: 0, ...targets }).conflict).toBe(true);
  });

  it('the same burst at 200 per window is not', () => {
    const bound = idleBound({ budget: spec, roundTripMs: 100, sent: 1_200, burst: 3, calls: 12, ...targets });
    expect(bound.allowed).toBeCloseTo((200 * 918) / 6_100, 6);
    expect(bound.conflict).toBe(false);
  });
});
