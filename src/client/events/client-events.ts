import type { BudgetInForce } from '../../rate-limit/limiter.js';
import type { RateLimitedOperationType } from '../../rate-limit/bucket-name.js';
import type { PermitWait } from '../../rate-limit/permit-queue.js';
import type { Priority, WaitReason } from '../../rate-limit/priority.js';
import { telemetry } from './telemetry.js';

export type { Priority, WaitReason } from '../../rate-limit/priority.js';
export type { PermitWait } from '../../rate-limit/permit-queue.js';

/**
 * What every event says of the call it belongs to. A call is one method call (or one chunk of a
 * bulk call sent in chunks): its id stays the same over all its attempts, so concurrent calls can
 * be told apart in logs and traces.
 */
export interface CallEvent {
  /** The SDK method, e.g. `'grantCoupon'` (or `'request'`). */
  operation: string;
  /**
   * The call's id, e.g. `'call_3f9a1c2e7b_1k'`: the same for every attempt and retry of the call,
   * unique among the calls of this process (every client included). It is also on the call's
   * result (`withResponse()`) and on its error (`AdminApiError.callId`).
   */
  callId: string;
  /**
   * Which request of the call the event is about: 1 for the first, then one more for every
   * request sent again (after a 429 or a retried failure).
   */
  attempt: number;
}

/** Emitted before each attempt is sent. */
export interface RequestEvent extends CallEvent {
  /** Which rate-limit budget the document counts against: `'mutations'` or `'queries'`. */
  operationType: RateLimitedOperationType;
  /**
   * How long this attempt waited in the queue for its permit, why (`'budget'`, `'paused'` after a
   * 429, `'learnt_limit'`) and under which budget; undefined when it got its permit at once (or
   * pacing is off).
   */
  waited?: PermitWait | undefined;
}

/** Emitted when an attempt got an HTTP response (any status). */
export interface ResponseEvent extends CallEvent {
  /** Which rate-limit budget the document counts against: `'mutations'` or `'queries'`. */
  operationType: RateLimitedOperationType;
  /** The HTTP status. */
  status: number;
  /** From sending the attempt to the end of its response, in whole milliseconds. */
  durationMs: number;
}

/** Emitted when a 429 pauses the operation type's queue (`attempt` is the request answered 429). */
export interface RateLimitedEvent extends CallEvent {
  /** Which rate-limit budget the document counts against: `'mutations'` or `'queries'`. */
  operationType: RateLimitedOperationType;
  /** How long the queue pauses, in whole milliseconds. */
  waitMs: number;
  /** The server's limit, when it said. */
  limit: number | undefined;
  /** How many 429s this call has met so far. */
  count: number;
}

/**
 * Emitted once per attempt when a call has waited for its rate-limit permit longer than
 * `limits.waitingThresholdMs` (pacing is otherwise silent: `rateLimited` fires only on a 429), or
 * for its retry after a failure that never reached the server (`reason: 'unreachable'`; the same
 * threshold, its default with `limits: false`). `attempt` is the request that waits (it has not
 * been sent yet).
 */
export interface WaitingEvent extends CallEvent {
  /** Which rate-limit budget the document counts against: `'mutations'` or `'queries'`. */
  operationType: RateLimitedOperationType;
  /** The lane the call waits in. */
  priority: Priority;
  /** How long it has waited so far, in whole milliseconds. */
  waitedMs: number;
  /**
   * An estimate of how much longer, in whole milliseconds: until the limiter next asks the store,
   * plus a window per `limit` calls queued ahead. Undefined when the limiter cannot tell. For
   * `'unreachable'`, at most this long (the retry's backoff is randomised; this is its upper bound).
   */
  expectedMs: number | undefined;
  /**
   * `'budget'`: the key's budget is spent for now (by this client, another one, or another process
   * sharing the store); `'paused'`: every client of the key waits after a 429; `'learnt_limit'`:
   * the budget the server revealed (a limit it stated, a window its 429s showed) allows fewer
   * requests per window than the one configured; `'unreachable'`: the server could not be reached
   * and the call waits to try again.
   */
  reason: WaitReason;
  /**
   * With `'unreachable'`: the failure's code (`'ECONNREFUSED'`, `'ENOTFOUND'`, ...), as
   * `NetworkError.networkCode`; undefined when the runtime gave none.
   */
  networkCode?: string | undefined;
  /**
   * The budget the call is paced under now and where it comes from: the `limits` option
   * (`'configured'`), the documented default (`'default'`), or the server's own figures (`'server'`).
   * Undefined only when pacing is off (`limits: false`).
   *
   * @example
   * ```ts
   * admin.on('waiting', ({ budget }) => {
   *   if (budget?.source === 'server') console.log(`the server allows ${budget.limit} per ${budget.windowMs / 1000} s`);
   * });
   * ```
   */
  budget?: BudgetInForce | undefined;
}

/** Emitted before a failed attempt is retried (`attempt` is the one about to be sent: 2 for the first retry). */
export interface RetryEvent extends CallEvent {
  /** The error class of the failure (e.g. `'NetworkError'`), never its data. */
  error: string;
  /** How many more attempts may follow this one. */
  retriesLeft: number;
}

/** The events of an `AdminClient`. None carries the API key or request variables. */
export interface ClientEventMap {
  /** Before each attempt is sent. */
  request: RequestEvent;
  /** When an attempt got an HTTP response (any status). */
  response: ResponseEvent;
  /** When a 429 pauses the operation type's queue. */
  rateLimited: RateLimitedEvent;
  /** When a call has waited for a rate-limit permit longer than `limits.waitingThresholdMs`. */
  waiting: WaitingEvent;
  /** Before a failed attempt is retried. */
  retry: RetryEvent;
}

/** A listener of one event. What it returns is ignored (a rejected promise too), so any arrow function fits. */
export type ClientEventListener<K extends keyof ClientEventMap> = (event: ClientEventMap[K]) => unknown;

/**
 * A small typed emitter; a throwing listener (or one whose promise rejects) never breaks a call. The events of a derived client
 * (`withOptions`) go to its own listeners, then to its parent's: a parent hears every call of the
 * clients derived from it, a derived client only its own.
 */
export class ClientEvents {
  /** The listeners of each event, made on the first `on()` of that event: most clients have none. */
  #listeners: Partial<Record<keyof ClientEventMap, Set<ClientEventListener<never>>>> | undefined;
  readonly #parent: ClientEvents | undefined;

  constructor(parent?: ClientEvents) {
    this.#parent = parent;
  }

  /** Adds a listener; returns a function that removes it. */
  on<K extends keyof ClientEventMap>(name: K, listener: ClientEventListener<K>): () => void {
    const listeners = (this.#listeners ??= {});
    const set = (listeners[name] ??= new Set()) as Set<ClientEventListener<K>>;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** True when someone listens to `name` (callers skip building events nobody reads): a listener, or an instrumentation. */
  listening(name: keyof ClientEventMap): boolean {
    return (this.#listeners?.[name]?.size ?? 0) > 0 || (this.#parent === undefined ? telemetry() !== undefined : this.#parent.listening(name));
  }

  emit<K extends keyof ClientEventMap>(name: K, event: ClientEventMap[K]): void {
    const set = this.#listeners?.[name] as Set<ClientEventListener<K>> | undefined;
    if (set !== undefined) {
      for (const listener of set) {
        try {
          const returned = listener(event);
          // An async listener's rejection is its own bug, like a throw: never an unhandled rejection.
          if (returned instanceof Promise) returned.catch(() => undefined);
        } catch {
          // A listener's bug must not turn a successful call into a failure.
        }
      }
    }
    // The root client hands every event on to an instrumentation (school-admin-sdk/otel), once.
    if (this.#parent === undefined) telemetry()?.event(name, event);
    else this.#parent.emit(name, event);
  }
}
