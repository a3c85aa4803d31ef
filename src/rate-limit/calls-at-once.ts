import { BURST_SPAN_MS } from './lane-rule.js';

/**
 * Counts the calls a client made at once: those made within `BURST_SPAN_MS` of the latest. What a
 * store remembers as an interactive burst (`AcquireRequest.burst`), so a queue that built up one
 * call at a time while the budget was full is not taken for one.
 */
export class CallsAtOnce {
  /** `performance.now()` of the calls made within the span of the latest, oldest first; none kept once they aged out. */
  #madeAt: number[] | undefined;

  /** Records a call made at `at` (ms, monotonic); returns how many were made at once with it. */
  made(at: number): number {
    (this.#madeAt ??= []).push(at);
    return this.at(at);
  }

  /** How many calls were made within the span before `at` (at least 1: the call asking). */
  at(at: number): number {
    this.forget(at);
    return Math.max(1, this.#madeAt?.length ?? 0);
  }

  /**
   * Drops the calls made longer than the span before `at`: no later count can include them. Also
   * told when an answer comes, so a burst's times are not kept until the next call.
   */
  forget(at: number): void {
    const madeAt = this.#madeAt;
    if (madeAt === undefined) return;
    // One splice, not a shift per call: a Promise.all of thousands of calls ages out at once.
    let old = 0;
    while (old < madeAt.length && (madeAt[old] as number) < at - BURST_SPAN_MS) old += 1;
    if (old === madeAt.length) this.#madeAt = undefined;
    else if (old > 0) madeAt.splice(0, old);
  }
}
