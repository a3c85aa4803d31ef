import { onAbort, stopOnAbort } from '../client/pipeline/abort-listeners.js';
import { CallsAtOnce } from './calls-at-once.js';
import type { AcquireRequest, AcquireResult, PermitStore } from './permit-store.js';
import type { Priority, WaitReason } from './priority.js';
import { WaitList, Waiter, type WaiterOwner } from './wait-list.js';
import { WaitingWatch, type WaitInfo } from './waiting-watch.js';
import type { BudgetInForce } from './limiter.js';

/** A granted permit; release it when the response (or the failure) arrives. */
export interface Permit {
  /** The request was answered, or failed after it may have reached the server: it counts for a window more. */
  release(): void;
  /**
   * The request surely never reached the server (the connection could not be made): the permit
   * stops counting at once (`PermitStore.giveBack`; a store without it gets `release`).
   */
  giveBack(): void;
  /** How long the request waited in the queue for this permit and why; undefined when it got one at once. */
  readonly waited?: PermitWait | undefined;
}

/** How long a request waited in the queue for its permit, and why. */
export interface PermitWait {
  /** From asking for the permit to getting it. */
  waitedMs: number;
  /** Why it waited (the store's last refusal): `'budget'`, `'paused'` (after a 429) or `'learnt_limit'`. */
  reason: WaitReason;
  /** The budget in force when it got the permit. */
  budget: BudgetInForce;
}

type Refusal = Extract<AcquireResult, { granted: false }>;
type Granted = Extract<AcquireResult, { granted: true }>;

/** What a {@link PermitQueue} needs from its limiter. */
export interface PermitQueueOptions {
  store: PermitStore;
  bucket: string;
  /**
   * The store request for a lane (limit, window, lease, share, reserve, waiter id), with the calls
   * waiting in it (`demand`) and, for interactive calls, how many were made at once (`burst`).
   */
  request(lane: Priority, demand: number, burst?: number): AcquireRequest;
  /** The current window: a permit counts this long after its release, and no sleep is longer. */
  windowMs(): number;
  /** What a refusal means for the calls still waiting. */
  reasonOf(refusal: Refusal): WaitReason;
  /** The budget in force (for the `waiting` event). */
  budget(): BudgetInForce;
  /** Hears what the store said with a permit: the limit it applied (a learnt limit shows here) and the requests it counts. */
  onGranted(result: Granted): void;
  /** Calls waiting longer than this are told (`Infinity`: never). */
  waitingThresholdMs: number;
}

/** How one call asks for a permit. */
export interface QueueAcquireOptions {
  lane: Priority;
  /** Goes before the others of its lane (a request sent again after a 429). */
  head: boolean;
  signal: AbortSignal | undefined;
  onWaiting: ((info: WaitInfo) => void) | undefined;
}

/**
 * The permits of one bucket (one key, one operation type) for one client: two lanes of waiting
 * calls, interactive first, FIFO within a lane.
 *
 * - Fast path: a call whose lane is empty (for background: both lanes) asks the store at once, so
 *   a burst up to the limit leaves within microtasks and an interactive call can take the slot
 *   the store keeps free for interactive traffic while background calls wait.
 * - Otherwise it waits in its lane. One dispatch loop asks the store for the head, hands each
 *   permit to the head of the queue as it is then, and on a refusal sleeps on one timer until the
 *   store's `retryAfterMs` (at most a window).
 * - An aborted call leaves its list at once (O(1)) and holds nothing; with nobody waiting, no
 *   timer is left, so the process can exit.
 * - A permit given back (its request never left: `PermitStore.giveBack`) frees its slot now, not
 *   when the store last said: the waiters ask again at once, and a refusal the store decided
 *   before it is not slept on. While calls wait, the queue also hears the store's `onRelease`,
 *   so a permit given back by another client of the key in this process counts too.
 */
export class PermitQueue implements WaiterOwner<Permit> {
  readonly #options: PermitQueueOptions;
  readonly #interactive = new WaitList<Permit>();
  readonly #background = new WaitList<Permit>();
  readonly #watch: WaitingWatch<Permit>;
  #running = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** `performance.now()` when the timer fires. */
  #dueAt = 0;
  #reason: WaitReason = 'budget';
  /** Interactive calls made at once (new calls only: a request sent again after a 429 is not one). */
  readonly #callsAtOnce = new CallsAtOnce();
  /**
   * Counts the moments a slot may have freed sooner than the store last said (a permit given back:
   * its request never left): a refusal asked for before the latest one may be stale.
   */
  #freed = 0;
  /** Stops hearing the store's `onRelease` (subscribed while calls wait: other clients' permits given back). */
  #stopListening: (() => void) | undefined;

  constructor(options: PermitQueueOptions) {
    this.#options = options;
    this.#watch = new WaitingWatch(options.waitingThresholdMs, (waiter) => this.#describe(waiter));
  }

  /** Calls waiting in both lanes. */
  get waiting(): number {
    return this.#interactive.size + this.#background.size;
  }

  /** Waits for a permit; rejects with the signal's reason as soon as it aborts. */
  acquire(options: QueueAcquireOptions): Promise<Permit> {
    const { signal } = options;
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const since = performance.now();
    const interactive = options.lane === 'interactive';
    // A request sent again after a 429 (`head`) is not a new call: it makes no burst.
    let burst: number | undefined;
    if (interactive) burst = options.head ? 1 : this.#callsAtOnce.made(since);
    const direct = interactive ? this.#interactive.size === 0 : this.waiting === 0;
    if (!direct) return this.#enqueue(options, since, undefined);
    const freed = this.#freed;
    return this.#options.store.tryAcquire(this.#options.request(options.lane, 1, burst)).then((result) => {
      if (result.granted) {
        this.#options.onGranted(result);
        const permit = this.#permit(result.permitId);
        if (signal?.aborted === true) {
          permit.release();
          throw signal.reason;
        }
        return permit;
      }
      this.#refused(result);
      signal?.throwIfAborted();
      // A permit given back while the store was asked: ask again at once.
      return this.#enqueue(options, since, this.#freed === freed ? result.retryAfterMs : 0);
    });
  }

  /** Asks the store again now (the limit went up). */
  wake(): void {
    if (!this.#running && this.waiting > 0) this.#arm(0);
  }

  /** {@inheritDoc WaiterOwner.abandon} */
  abandon(waiter: Waiter<Permit>): void {
    if (!this.#leave(waiter)) return;
    waiter.reject(waiter.signal?.reason);
    if (this.waiting === 0) this.#disarm();
  }

  #enqueue(options: QueueAcquireOptions, since: number, retryAfterMs: number | undefined): Promise<Permit> {
    const waiter = new Waiter<Permit>(this, options.lane, since, options.signal, options.onWaiting);
    const promise = new Promise<Permit>((resolve, reject) => {
      waiter.resolve = resolve;
      waiter.reject = reject;
    });
    this.#list(options.lane).add(waiter, options.head);
    this.#stopListening ??= this.#options.store.onRelease?.(this.#options.bucket, (givenBack) => {
      // A release frees nothing sooner than the store said (the request counts a window more).
      if (givenBack === true) this.#slotFreed();
    });
    if (options.signal !== undefined) onAbort(options.signal, waiter);
    if (options.onWaiting !== undefined) this.#watch.add(waiter);
    // Whenever calls wait, the loop runs or its timer is set: a call that joins behind others adds
    // nothing; one refused on its own (fast path) may need the loop sooner.
    if (retryAfterMs !== undefined && !this.#running) this.#arm(this.#sleepMs(retryAfterMs));
    return promise;
  }

  /** The waiting calls of `lane`. */
  #list(lane: Priority): WaitList<Permit> {
    return lane === 'interactive' ? this.#interactive : this.#background;
  }

  /** The head of the queue: interactive first. */
  #head(): Waiter<Permit> | undefined {
    return this.#interactive.head ?? this.#background.head;
  }

  /** Takes `waiter` out of its lane and the watch; false when it had already left. */
  #leave(waiter: Waiter<Permit>): boolean {
    const list = waiter.list;
    if (list === undefined) return false;
    list.remove(waiter);
    this.#watch.remove(waiter);
    if (this.waiting === 0) {
      this.#stopListening?.();
      this.#stopListening = undefined;
    }
    if (waiter.signal !== undefined) stopOnAbort(waiter.signal, waiter);
    return true;
  }

  async #dispatch(): Promise<void> {
    this.#running = true;
    try {
      for (let head = this.#head(); head !== undefined; head = this.#head()) {
        let result: AcquireResult;
        const freed = this.#freed;
        try {
          const interactive = head.lane === 'interactive';
          // The calls queued behind the head are demand; only those made at once are a burst.
          const burst = interactive ? this.#callsAtOnce.at(performance.now()) : undefined;
          result = await this.#options.store.tryAcquire(this.#options.request(head.lane, this.#list(head.lane).size, burst));
        } catch (error) {
          // The store failed (e.g. Redis is down): the call it was asked for fails with it.
          const failed = this.#head();
          if (failed !== undefined && this.#leave(failed)) failed.reject(error);
          continue;
        }
        if (!result.granted) {
          this.#refused(result);
          // An interactive call joined while a background call was being asked for: the store's
          // answer for it may differ (held slots, the reserve), so it is asked for now.
          if (head.lane === 'background' && this.#interactive.head !== undefined) continue;
          if (this.#freed !== freed) continue;
          this.#running = false;
          this.#arm(this.#sleepMs(result.retryAfterMs));
          return;
        }
        this.#options.onGranted(result);
        // The permit goes to whoever heads the queue now: the call it was asked for may have left,
        // and an interactive call may have arrived meanwhile.
        const taker = this.#head();
        const permit = this.#permit(result.permitId);
        if (taker === undefined) permit.release();
        else if (this.#leave(taker)) {
          permit.waited = { waitedMs: performance.now() - taker.since, reason: this.#reason, budget: this.#options.budget() };
          taker.resolve(permit);
        }
      }
    } finally {
      this.#running = false;
    }
  }

  #refused(refusal: Refusal): void {
    this.#reason = this.#options.reasonOf(refusal);
  }

  /** Sleep until the store's answer may change, at least 1 ms, at most a window. */
  #sleepMs(retryAfterMs: number): number {
    return Math.min(Math.max(retryAfterMs, 1), this.#options.windowMs());
  }

  /** Runs the dispatch loop in `delayMs`, unless a timer fires sooner. */
  #arm(delayMs: number): void {
    const dueAt = performance.now() + delayMs;
    if (this.#timer !== undefined) {
      if (this.#dueAt <= dueAt) return;
      clearTimeout(this.#timer);
    }
    this.#dueAt = dueAt;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#running) void this.#dispatch();
    }, delayMs);
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #describe(waiter: Waiter<Permit>): Omit<WaitInfo, 'waitedMs'> {
    const ahead = (waiter.lane === 'background' ? this.#interactive.size : 0) + (waiter.list?.ahead(waiter) ?? 0);
    const budget = this.#options.budget();
    const untilNextAttempt = this.#timer === undefined ? 0 : Math.max(0, this.#dueAt - performance.now());
    return { expectedMs: Math.round(untilNextAttempt + Math.floor(ahead / budget.limit) * budget.windowMs), reason: this.#reason, budget };
  }

  #permit(permitId: string): StorePermit {
    return new StorePermit(this.#options, permitId, this.#slotFreed);
  }

  /** A slot may be free sooner than the store said: waiters ask again now. */
  readonly #slotFreed = (): void => {
    this.#freed += 1;
    this.wake();
  };
}

/** A permit of the store, released or given back once (a second time changes nothing). */
class StorePermit implements Permit {
  #released = false;
  waited: PermitWait | undefined;

  constructor(
    readonly options: Pick<PermitQueueOptions, 'store' | 'bucket' | 'windowMs'>,
    readonly permitId: string,
    /** Told once the store took the permit back (the queue's waiters ask again). */
    readonly givenBack: () => void,
  ) {}

  release(): void {
    if (this.#released) return;
    this.#released = true;
    // Fire and forget: the answer's time is taken now; a store failure must not fail the call.
    this.options.store.release(this.options.bucket, this.permitId, this.options.windowMs()).catch(() => undefined);
  }

  giveBack(): void {
    const { store, bucket } = this.options;
    if (store.giveBack === undefined) {
      this.release();
      return;
    }
    if (this.#released) return;
    this.#released = true;
    store.giveBack(bucket, this.permitId).then(this.givenBack, () => undefined);
  }
}
