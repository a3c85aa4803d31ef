import type { BudgetInForce } from './limiter.js';
import type { WaitReason } from './priority.js';
import type { Waiter } from './wait-list.js';

/** What a call that waits longer than the threshold is told. */
export interface WaitInfo {
  /** How long the call has waited for its permit so far, in whole milliseconds. */
  waitedMs: number;
  /** An estimate of how much longer it will wait, in whole milliseconds, when the limiter can tell. */
  expectedMs: number | undefined;
  reason: WaitReason;
  /**
   * The budget the call is paced under now (`limit` requests per sliding `windowMs`) and where it
   * comes from: the client's `limits` option, the documented default, or the server's own figures
   * (a limit it stated, a window its 429s revealed).
   */
  budget: BudgetInForce;
}

/**
 * Tells each waiter, once, when it has waited longer than `thresholdMs`, with one timer for all of
 * them: waiters are kept in the order they started waiting, so only the oldest needs a timer.
 * No timer is left once no waiter is watched.
 */
export class WaitingWatch<TPermit> {
  readonly #thresholdMs: number;
  readonly #describe: (waiter: Waiter<TPermit>) => Omit<WaitInfo, 'waitedMs'>;
  #oldest: Waiter<TPermit> | undefined;
  #newest: Waiter<TPermit> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(thresholdMs: number, describe: (waiter: Waiter<TPermit>) => Omit<WaitInfo, 'waitedMs'>) {
    this.#thresholdMs = thresholdMs;
    this.#describe = describe;
  }

  /** Watches `waiter` (which must have an `onWaiting` callback). */
  add(waiter: Waiter<TPermit>): void {
    if (!Number.isFinite(this.#thresholdMs)) return;
    waiter.watched = true;
    waiter.watchPrev = this.#newest;
    if (this.#newest === undefined) this.#oldest = waiter;
    else this.#newest.watchNext = waiter;
    this.#newest = waiter;
    if (this.#timer === undefined) this.#arm();
  }

  /** Stops watching `waiter` (granted, aborted or told). */
  remove(waiter: Waiter<TPermit>): void {
    if (!waiter.watched) return;
    waiter.watched = false;
    if (waiter.watchPrev === undefined) this.#oldest = waiter.watchNext;
    else waiter.watchPrev.watchNext = waiter.watchNext;
    if (waiter.watchNext === undefined) this.#newest = waiter.watchPrev;
    else waiter.watchNext.watchPrev = waiter.watchPrev;
    waiter.watchPrev = undefined;
    waiter.watchNext = undefined;
    if (this.#oldest === undefined) this.#disarm();
  }

  #arm(): void {
    const oldest = this.#oldest;
    if (oldest === undefined) return;
    const dueInMs = Math.max(0, oldest.since + this.#thresholdMs - performance.now());
    this.#timer = setTimeout(() => this.#fire(), dueInMs);
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #fire(): void {
    this.#timer = undefined;
    const now = performance.now();
    for (let waiter = this.#oldest; waiter !== undefined && now - waiter.since >= this.#thresholdMs; waiter = this.#oldest) {
      this.remove(waiter);
      waiter.onWaiting?.({ waitedMs: Math.round(now - waiter.since), ...this.#describe(waiter) });
    }
    if (this.#timer === undefined) this.#arm();
  }
}
