import { onAbort, stopOnAbort } from '../client/pipeline/abort-listeners.js';
import type { RateLimitedOperationType } from './bucket-name.js';
import { CallsAtOnce } from './calls-at-once.js';
import { PausePastAllowanceSignal, pausePastAllowance } from './pause-past-allowance.js';
import type { AcquireRequest, AcquireResult, PermitStore } from './permit-store.js';
import type { Priority, WaitReason } from './priority.js';
import { WaitList, Waiter, type WaiterOwner } from './wait-list.js';
import { WaitingWatch, type WaitInfo } from './waiting-watch.js';
import type { BudgetInForce, LimiterBudget } from './limiter.js';

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

/** A call of the fast path waiting for its lane's calls of the same run to ask together. */
interface DirectCall {
  options: QueueAcquireOptions;
  since: number;
  burst: number | undefined;
  resolve: (permit: Permit | Promise<Permit>) => void;
  reject: (reason: unknown) => void;
}
type Granted = Extract<AcquireResult, { granted: true }>;

/**
 * What a {@link PermitQueue} asks its limiter about the operation type it paces. Methods of the
 * limiter, not closures per queue: a process may hold thousands of clients, most of them idle.
 */
export interface PermitQueueOwner {
  /**
   * The store request for a lane (limit, window, lease, share, reserve, waiter id), with the calls
   * waiting in it (`demand`) and, for interactive calls, how many were made at once (`burst`).
   */
  permitRequest(type: RateLimitedOperationType, lane: Priority, demand: number, burst?: number): AcquireRequest;
  /** The budget applied now: a permit counts a window after its release, and no sleep is longer. */
  budget(type: RateLimitedOperationType): Readonly<LimiterBudget>;
  /** What a refusal means for the calls still waiting. */
  waitReason(type: RateLimitedOperationType, refusal: Refusal): WaitReason;
  /** The budget in force (for the `waiting` event). */
  budgetInForce(type: RateLimitedOperationType): BudgetInForce;
  /** Hears what the store said with a permit: the limit it applied (a learnt limit shows here) and the requests it counts. */
  granted(type: RateLimitedOperationType, result: Granted): void;
}

/** What a {@link PermitQueue} paces. */
export interface PermitQueueOptions {
  owner: PermitQueueOwner;
  type: RateLimitedOperationType;
  store: PermitStore;
  bucket: string;
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
  /** How long the call may still wait on a 429's pause of the key (`Infinity`: as long as it lasts). */
  pauseAllowanceMs: number;
}

/**
 * The permits of one bucket (one key, one operation type) for one client: two lanes of waiting
 * calls, interactive first, FIFO within a lane.
 *
 * - Fast path: a call whose lane is empty (for background: both lanes) asks the store at once, so
 *   a burst up to the limit leaves within microtasks and an interactive call can take the slot
 *   the store keeps free for interactive traffic while background calls wait. Calls of a lane made
 *   in one synchronous run ask together (`tryAcquireMany`, when the store has it).
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
  // The lanes, the watch and the burst count are made when first needed: most clients of a
  // process with many keys never wait, and many never call.
  #interactive: WaitList<Permit> | undefined;
  #background: WaitList<Permit> | undefined;
  #watch: WaitingWatch<Permit> | undefined;
  #running = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** `performance.now()` when the timer fires. */
  #dueAt = 0;
  #reason: WaitReason = 'budget';
  /** Interactive calls made at once (new calls only: a request sent again after a 429 is not one). */
  #callsAtOnce: CallsAtOnce | undefined;
  /**
   * Counts the moments a slot may have freed sooner than the store last said (a permit given back:
   * its request never left): a refusal asked for before the latest one may be stale.
   */
  #freed = 0;
  /** Stops hearing the store's `onRelease` (subscribed while calls wait: other clients' permits given back). */
  #stopListening: (() => void) | undefined;
  /**
   * Per lane, the calls of the current synchronous run that will ask the store together; undefined
   * between runs (a field per lane, not a map: a call made alone would make a map each time, and an
   * idle client would keep one).
   */
  #togetherInteractive: DirectCall[] | undefined;
  #togetherBackground: DirectCall[] | undefined;

  constructor(options: PermitQueueOptions) {
    this.#options = options;
  }

  /** Calls waiting in both lanes. */
  get waiting(): number {
    return (this.#interactive?.size ?? 0) + (this.#background?.size ?? 0);
  }

  /** Waits for a permit; rejects with the signal's reason as soon as it aborts. */
  acquire(options: QueueAcquireOptions): Promise<Permit> {
    const { signal } = options;
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const since = performance.now();
    const interactive = options.lane === 'interactive';
    // A request sent again after a 429 (`head`) is not a new call: it makes no burst.
    let burst: number | undefined;
    if (interactive) burst = options.head ? 1 : (this.#callsAtOnce ??= new CallsAtOnce()).made(since);
    const direct = interactive ? (this.#interactive?.size ?? 0) === 0 : this.waiting === 0;
    if (!direct) return this.#enqueue(options, since, undefined);
    if (this.#options.store.tryAcquireMany !== undefined) return this.#askTogether(options, since, burst);
    return this.#askAlone(options, since, burst);
  }

  /**
   * The fast path, for a store that grants several permits in one call: the calls of a lane made
   * in one synchronous run (a burst: `Promise.all` over a list) ask the store together at the end
   * of it, in one call, instead of one call each (a round trip to Redis each, in order: 100 keys
   * x 60 calls made at once took 0.6 s to send their first window).
   */
  #askTogether(options: QueueAcquireOptions, since: number, burst: number | undefined): Promise<Permit> {
    return new Promise<Permit>((resolve, reject) => {
      const lane = options.lane;
      let calls = lane === 'interactive' ? this.#togetherInteractive : this.#togetherBackground;
      if (calls === undefined) {
        const collected: DirectCall[] = [];
        calls = collected;
        if (lane === 'interactive') this.#togetherInteractive = collected;
        else this.#togetherBackground = collected;
        queueMicrotask(() => {
          if (lane === 'interactive') this.#togetherInteractive = undefined;
          else this.#togetherBackground = undefined;
          this.#sendTogether(lane, collected);
        });
      }
      calls.push({ options, since, burst, resolve, reject });
    });
  }

  #sendTogether(lane: Priority, calls: DirectCall[]): void {
    const { owner, type, store } = this.#options;
    // A call made alone asks alone (tryAcquire: the store's cheapest answer).
    if (calls.length === 1 || store.tryAcquireMany === undefined) {
      for (const call of calls) this.#askAlone(call.options, call.since, call.burst).then(call.resolve, call.reject);
      return;
    }
    const freed = this.#freed;
    const request = owner.permitRequest(type, lane, calls.length, calls.at(-1)?.burst);
    store.tryAcquireMany(request, Math.min(calls.length, request.limit)).then(
      (results) => {
        const waiting = calls.values();
        // The next call still there (one that was aborted meanwhile leaves with its signal's reason).
        const nextCall = (): DirectCall | undefined => {
          for (let call = waiting.next(); call.done !== true; call = waiting.next()) {
            if (call.value.options.signal?.aborted !== true) return call.value;
            call.value.reject(call.value.options.signal.reason);
          }
          return undefined;
        };
        let refusal: Refusal | undefined;
        for (const result of results) {
          if (!result.granted) {
            refusal = result;
            this.#refused(result);
            continue;
          }
          const permit = this.#granted(result);
          const taker = nextCall();
          if (taker === undefined) permit.giveBack();
          else taker.resolve(permit);
        }
        // The rest wait in the lane: until the store's time when it refused, else (fewer granted
        // than asked for) the loop asks again at once and sleeps on its answer.
        const retryAfterMs = refusal === undefined || this.#freed !== freed ? 0 : refusal.retryAfterMs;
        for (let call = nextCall(); call !== undefined; call = nextCall()) {
          const { pauseAllowanceMs } = call.options;
          if (refusal !== undefined && pausePastAllowance(refusal, pauseAllowanceMs)) call.reject(new PausePastAllowanceSignal(refusal.retryAfterMs, pauseAllowanceMs));
          else call.resolve(this.#enqueue(call.options, call.since, retryAfterMs));
        }
      },
      (error: unknown) => {
        for (const call of calls) call.reject(error);
      },
    );
  }

  /** The fast path of one call: it asks the store at once. */
  #askAlone(options: QueueAcquireOptions, since: number, burst: number | undefined): Promise<Permit> {
    const { signal } = options;
    const freed = this.#freed;
    const { owner, type, store } = this.#options;
    return store.tryAcquire(owner.permitRequest(type, options.lane, 1, burst)).then((result) => {
      if (result.granted) {
        const permit = this.#granted(result);
        if (signal?.aborted === true) {
          // The call left while the store was asked: no request used the permit, so its slot frees now.
          permit.giveBack();
          throw signal.reason;
        }
        return permit;
      }
      this.#refused(result);
      signal?.throwIfAborted();
      if (pausePastAllowance(result, options.pauseAllowanceMs)) throw new PausePastAllowanceSignal(result.retryAfterMs, options.pauseAllowanceMs);
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
    waiter.pauseAllowanceMs = options.pauseAllowanceMs;
    const promise = new Promise<Permit>((resolve, reject) => {
      waiter.resolve = resolve;
      waiter.reject = reject;
    });
    this.#list(options.lane).add(waiter, options.head);
    this.#stopListening ??= this.#options.store.onRelease?.(this.#options.bucket, (givenBack) => {
      // A release frees nothing sooner than the store said (the request counts a window more).
      if (givenBack === true) this.slotFreed();
    });
    if (options.signal !== undefined) onAbort(options.signal, waiter);
    if (options.onWaiting !== undefined && Number.isFinite(this.#options.waitingThresholdMs)) {
      (this.#watch ??= new WaitingWatch(this.#options.waitingThresholdMs, (watched) => this.#describe(watched))).add(waiter);
    }
    // Whenever calls wait, the loop runs or its timer is set: a call that joins behind others adds
    // nothing; one refused on its own (fast path) may need the loop sooner.
    if (retryAfterMs !== undefined && !this.#running) this.#arm(this.#sleepMs(retryAfterMs));
    return promise;
  }

  /** The waiting calls of `lane`. */
  #list(lane: Priority): WaitList<Permit> {
    if (lane === 'interactive') return (this.#interactive ??= new WaitList());
    return (this.#background ??= new WaitList());
  }

  /** The head of the queue: interactive first. */
  #head(): Waiter<Permit> | undefined {
    return this.#interactive?.head ?? this.#background?.head;
  }

  /** Takes `waiter` out of its lane and the watch; false when it had already left. */
  #leave(waiter: Waiter<Permit>): boolean {
    const list = waiter.list;
    if (list === undefined) return false;
    list.remove(waiter);
    this.#watch?.remove(waiter);
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
        let results: AcquireResult[];
        const freed = this.#freed;
        try {
          results = await this.#ask(head.lane);
        } catch (error) {
          // The store failed (e.g. Redis is down): the call it was asked for fails with it.
          const failed = this.#head();
          if (failed !== undefined && this.#leave(failed)) failed.reject(error);
          continue;
        }
        const [first] = results;
        if (first !== undefined && !first.granted) {
          this.#refused(first);
          if (first.paused) this.#failPastPause(first);
          if (this.#head() === undefined) return;
          // An interactive call joined while a background call was being asked for: the store's
          // answer for it may differ (held slots, the reserve), so it is asked for now.
          if (head.lane === 'background' && this.#interactive?.head !== undefined) continue;
          if (this.#freed !== freed) continue;
          this.#running = false;
          this.#arm(this.#sleepMs(first.retryAfterMs));
          return;
        }
        for (const result of results) if (result.granted) this.#handOut(result);
      }
    } finally {
      this.#running = false;
    }
  }

  /**
   * Asks the store for permits for the calls waiting in `lane`: all of them (up to the limit) in
   * one call when the store can (`tryAcquireMany`: one round trip to a shared store for a window's
   * worth of slots freeing at once), else for the head.
   */
  #ask(lane: Priority): Promise<AcquireResult[]> {
    const waiting = this.#list(lane).size;
    // The calls queued behind the head are demand; only those made at once are a burst.
    const burst = lane === 'interactive' ? (this.#callsAtOnce ??= new CallsAtOnce()).at(performance.now()) : undefined;
    const { owner, type, store } = this.#options;
    const request = owner.permitRequest(type, lane, waiting, burst);
    const count = Math.min(waiting, request.limit);
    if (count >= 2 && store.tryAcquireMany !== undefined) return store.tryAcquireMany(request, count);
    return store.tryAcquire(request).then((result) => [result]);
  }

  /**
   * A permit goes to whoever heads the queue now: the call it was asked for may have left, and an
   * interactive call may have arrived meanwhile. With nobody left, it is given back: no request
   * used it.
   */
  #handOut(result: Granted): void {
    const permit = this.#granted(result);
    const taker = this.#head();
    if (taker === undefined) permit.giveBack();
    else if (this.#leave(taker)) {
      permit.waited = { waitedMs: performance.now() - taker.since, reason: this.#reason, budget: this.#options.owner.budgetInForce(this.#options.type) };
      taker.resolve(permit);
    }
  }

  /** A permit the store granted: the owner hears what the store said with it. */
  #granted(result: Granted): StorePermit {
    this.#options.owner.granted(this.#options.type, result);
    return this.#permit(result.permitId);
  }

  #refused(refusal: Refusal): void {
    this.#reason = this.#options.owner.waitReason(this.#options.type, refusal);
  }

  /**
   * The key is paused after a 429: the calls that may not wait that long on a pause fail now, with
   * nothing sent, instead of each waiting out its turn (or sending into the server's 429s).
   */
  #failPastPause(refusal: Refusal): void {
    for (const list of [this.#interactive, this.#background]) {
      if (list === undefined || list.size === 0) continue;
      for (const waiter of list.filter((each) => pausePastAllowance(refusal, each.pauseAllowanceMs))) {
        if (this.#leave(waiter)) waiter.reject(new PausePastAllowanceSignal(refusal.retryAfterMs, waiter.pauseAllowanceMs));
      }
    }
  }

  /** Sleep until the store's answer may change, at least 1 ms, at most a window. */
  #sleepMs(retryAfterMs: number): number {
    return Math.min(Math.max(retryAfterMs, 1), this.windowMs());
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
    const ahead = (waiter.lane === 'background' ? (this.#interactive?.size ?? 0) : 0) + (waiter.list?.ahead(waiter) ?? 0);
    const budget = this.#options.owner.budgetInForce(this.#options.type);
    const untilNextAttempt = this.#timer === undefined ? 0 : Math.max(0, this.#dueAt - performance.now());
    return { expectedMs: Math.round(untilNextAttempt + Math.floor(ahead / budget.limit) * budget.windowMs), reason: this.#reason, budget };
  }

  #permit(permitId: string): StorePermit {
    return new StorePermit(this, permitId);
  }

  /** The store and bucket the queue's permits belong to. */
  get store(): PermitStore {
    return this.#options.store;
  }

  get bucket(): string {
    return this.#options.bucket;
  }

  /** The current window: a permit counts this long after its release, and no sleep is longer. */
  windowMs(): number {
    return this.#options.owner.budget(this.#options.type).windowMs;
  }

  /** A slot may be free sooner than the store said (a permit given back): waiters ask again now. */
  slotFreed(): void {
    this.#freed += 1;
    this.wake();
  }

  /**
   * A permit of this queue was released (its answer came): the calls it counted at once are past
   * the burst span by now, or soon, so their times need not be kept until the next call.
   */
  released(): void {
    this.#callsAtOnce?.forget(performance.now());
  }
}

/** A permit of the store, released or given back once (a second time changes nothing). */
class StorePermit implements Permit {
  #released = false;
  waited: PermitWait | undefined;

  constructor(
    readonly queue: PermitQueue,
    readonly permitId: string,
  ) {}

  release(): void {
    if (this.#released) return;
    this.#released = true;
    const { queue } = this;
    // Fire and forget: the answer's time is taken now; a store failure must not fail the call.
    queue.store.release(queue.bucket, this.permitId, queue.windowMs()).catch(() => undefined);
    queue.released();
  }

  giveBack(): void {
    const { queue } = this;
    if (queue.store.giveBack === undefined) {
      this.release();
      return;
    }
    if (this.#released) return;
    this.#released = true;
    // Told once the store took the permit back: the queue's waiters ask again.
    queue.store.giveBack(queue.bucket, this.permitId).then(() => queue.slotFreed(), () => undefined);
  }
}
