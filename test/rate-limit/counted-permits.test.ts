import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CountedPermits } from '../../src/rate-limit/counted-permits.js';

/**
 * The memory store's permits as the rule states them, one object per permit and every question
 * answered by sorting: the model the compact layout of CountedPermits must agree with.
 */
class NaivePermits {
  readonly #permits = new Map<number, { sent: number; time: number; answered: boolean; background: boolean }>();
  #next = 0;

  grant(sent: number, leaseEnd: number, background: boolean): number {
    this.#permits.set(this.#next, { sent, time: leaseEnd, answered: false, background });
    return this.#next++;
  }

  answer(seq: number, at: number): boolean {
    const permit = this.#permits.get(seq);
    if (permit === undefined || permit.answered) return false;
    permit.answered = true;
    permit.time = at;
    return true;
  }

  answerAgain(seq: number, at: number): boolean {
    const permit = this.#permits.get(seq);
    if (permit === undefined || !permit.answered || !(permit.time < at)) return false;
    permit.time = at;
    return true;
  }

  giveBack(seq: number): boolean {
    const permit = this.#permits.get(seq);
    if (permit === undefined || permit.answered) return false;
    return this.#permits.delete(seq);
  }

  settle(now: number, windowMs: number): void {
    for (const permit of this.#permits.values()) if (!permit.answered && permit.time <= now) permit.answered = true;
    for (const [seq, permit] of this.#permits) if (permit.answered && permit.time <= now - windowMs) this.#permits.delete(seq);
  }

  figures(rank: number): object {
    const all = [...this.#permits.values()];
    const times = (permits: typeof all): number[] => permits.map((permit) => permit.time).sort((a, b) => a - b);
    const inFlight = all.filter((permit) => !permit.answered);
    return {
      counted: all.length,
      inFlight: inFlight.length,
      answered: all.length - inFlight.length,
      background: all.filter((permit) => permit.background).length,
      interactive: all.filter((permit) => !permit.background).length,
      interactiveInFlight: inFlight.filter((permit) => !permit.background).length,
      nthAnswer: times(all.filter((permit) => permit.answered))[rank - 1],
      earliestLease: times(inFlight)[0],
      nthBackground: times(all.filter((permit) => permit.background))[rank - 1],
      oldestSent: all.length === 0 ? undefined : Math.min(...all.map((permit) => permit.sent)),
    };
  }
}

function figuresOf(permits: CountedPermits, rank: number): object {
  return {
    counted: permits.counted,
    inFlight: permits.inFlight,
    answered: permits.answeredCount,
    background: permits.background,
    interactive: permits.interactive,
    interactiveInFlight: permits.interactiveInFlight,
    nthAnswer: permits.nthEarliestAnswer(rank),
    earliestLease: permits.earliestLeaseEnd(),
    nthBackground: permits.nthEarliestBackground(rank),
    oldestSent: permits.oldestSent(),
  };
}

type Step =
  | { kind: 'grant'; leaseMs: number; background: boolean }
  | { kind: 'answer' | 'answerAgain' | 'giveBack'; pick: number }
  | { kind: 'settle'; windowMs: number }
  | { kind: 'clock'; ms: number };

/**
 * Any order of events, the clock going back now and then included. Durations come from a few
 * round values, so that lease ends, answers and window ends often fall on the same millisecond.
 */
const DURATION = fc.oneof(fc.constantFrom(1, 5, 10, 20, 50, 100), fc.integer({ min: 1, max: 300 }));
const STEPS = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('grant' as const), leaseMs: DURATION, background: fc.boolean() }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constantFrom('answer' as const, 'answerAgain' as const, 'giveBack' as const), pick: fc.nat(60) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('settle' as const), windowMs: DURATION }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('clock' as const), ms: fc.oneof(fc.constantFrom(0, 1, 5, 10, 20, 50), fc.integer({ min: -30, max: 0 })) }) },
  ),
  { maxLength: 250 },
);

describe('CountedPermits: the compact layout answers as the rule states it', () => {
  it('agrees with one object per permit on every count and time, after any sequence of grants, answers, give-backs, settles and clock steps (back included)', () => {
    fc.assert(
      fc.property(STEPS, fc.integer({ min: 1, max: 6 }), (steps, rank) => {
        const compact = new CountedPermits();
        const naive = new NaivePermits();
        let now = 1_000;
        let granted = 0;
        for (const step of steps) {
          if (step.kind === 'clock') now += step.ms;
          else if (step.kind === 'grant') {
            expect(compact.grant(now, now + step.leaseMs, step.background)).toBe(naive.grant(now, now + step.leaseMs, step.background));
            granted += 1;
          } else if (step.kind === 'settle') {
            compact.settle(now, step.windowMs);
            naive.settle(now, step.windowMs);
          } else {
            const seq = granted === 0 ? 0 : step.pick % granted;
            expect(compact[step.kind](seq, now)).toBe(naive[step.kind](seq, now));
          }
          expect(figuresOf(compact, rank)).toEqual(naive.figures(rank));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a permit that counts no more is unknown: its sequence number answers nothing, a new permit gets a new number', () => {
    const permits = new CountedPermits();
    const first = permits.grant(0, 100, false);
    expect(permits.answer(first, 10)).toBe(true);
    permits.settle(1_010, 1_000);
    expect(permits.counted).toBe(0);
    expect(permits.answer(first, 1_020)).toBe(false);
    expect(permits.answerAgain(first, 1_020)).toBe(false);
    expect(permits.giveBack(first)).toBe(false);
    expect(permits.grant(1_020, 1_120, false)).toBe(first + 1);
  });
});
