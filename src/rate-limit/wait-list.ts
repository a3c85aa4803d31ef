import type { Priority } from './priority.js';
import type { WaitInfo } from './waiting-watch.js';

/**
 * One call waiting for a permit: a node of its lane's list (and of the waiting watch's list), so
 * that leaving is O(1) wherever it stands. Fields only; the dispatcher owns the logic.
 */
export class Waiter<TPermit> {
  prev: Waiter<TPermit> | undefined = undefined;
  next: Waiter<TPermit> | undefined = undefined;
  /** The list the waiter is in, if any. */
  list: WaitList<TPermit> | undefined = undefined;
  /** Order in its lane (for the position estimate): lower leaves first. */
  seq = 0;
  watchPrev: Waiter<TPermit> | undefined = undefined;
  watchNext: Waiter<TPermit> | undefined = undefined;
  watched = false;
  /** How long the call may still wait on a 429's pause of the key. */
  pauseAllowanceMs = Number.POSITIVE_INFINITY;
  resolve: (permit: TPermit) => void = noop;
  reject: (reason: unknown) => void = noop;

  constructor(
    readonly owner: WaiterOwner<TPermit>,
    readonly lane: Priority,
    /** `performance.now()` when the call asked for its permit. */
    readonly since: number,
    readonly signal: AbortSignal | undefined,
    /** Told once when the wait passes the threshold. */
    readonly onWaiting: ((info: WaitInfo) => void) | undefined,
  ) {}

  /** The waiter is its own abort listener (an EventListener object): no closure per waiter. */
  handleEvent(): void {
    this.owner.abandon(this);
  }
}

/** Who a waiter reports its abort to. */
export interface WaiterOwner<TPermit> {
  abandon(waiter: Waiter<TPermit>): void;
}

function noop(): void {}

/**
 * A FIFO list of waiters with insertion at either end and O(1) removal of any member. It holds
 * nothing but its ends and a count; an empty list costs nothing.
 */
export class WaitList<TPermit> {
  #head: Waiter<TPermit> | undefined;
  #tail: Waiter<TPermit> | undefined;
  #size = 0;
  #nextTailSeq = 0;
  #nextHeadSeq = -1;

  get size(): number {
    return this.#size;
  }

  get head(): Waiter<TPermit> | undefined {
    return this.#head;
  }

  /** Adds `waiter` at the end, or at the front with `atHead` (a request sent again after a 429). */
  add(waiter: Waiter<TPermit>, atHead: boolean): void {
    waiter.list = this;
    this.#size += 1;
    if (atHead) {
      waiter.seq = this.#nextHeadSeq--;
      waiter.next = this.#head;
      if (this.#head === undefined) this.#tail = waiter;
      else this.#head.prev = waiter;
      this.#head = waiter;
      return;
    }
    waiter.seq = this.#nextTailSeq++;
    waiter.prev = this.#tail;
    if (this.#tail === undefined) this.#head = waiter;
    else this.#tail.next = waiter;
    this.#tail = waiter;
  }

  /** Takes `waiter` out; false when it was not in this list. */
  remove(waiter: Waiter<TPermit>): boolean {
    if (waiter.list !== this) return false;
    if (waiter.prev === undefined) this.#head = waiter.next;
    else waiter.prev.next = waiter.next;
    if (waiter.next === undefined) this.#tail = waiter.prev;
    else waiter.next.prev = waiter.prev;
    waiter.prev = undefined;
    waiter.next = undefined;
    waiter.list = undefined;
    this.#size -= 1;
    return true;
  }

  /** The waiters for which `test` holds, in order (a copy: the caller may remove them). */
  filter(test: (waiter: Waiter<TPermit>) => boolean): Waiter<TPermit>[] {
    const found: Waiter<TPermit>[] = [];
    for (let waiter = this.#head; waiter !== undefined; waiter = waiter.next) if (test(waiter)) found.push(waiter);
    return found;
  }

  /** About how many waiters stand before `waiter` (exact unless some in between left early). */
  ahead(waiter: Waiter<TPermit>): number {
    return this.#head === undefined ? 0 : Math.max(0, Math.min(this.#size - 1, waiter.seq - this.#head.seq));
  }
}
