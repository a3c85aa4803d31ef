import type { RateLimitedOperationType } from '../rate-limit/bucket-name.js';
import type { Priority, WaitReason } from '../rate-limit/priority.js';

export type { Priority, WaitReason } from '../rate-limit/priority.js';

/** Emitted before each attempt is sent. */
export interface RequestEvent {
  operation: string;
  operationType: RateLimitedOperationType;
  /** 1 for the first attempt. */
  attempt: number;
}

/** Emitted when an attempt got an HTTP response (any status). */
export interface ResponseEvent {
  operation: string;
  operationType: RateLimitedOperationType;
  attempt: number;
  status: number;
  durationMs: number;
}

/** Emitted when a 429 pauses the operation type's queue. */
export interface RateLimitedEvent {
  operation: string;
  operationType: RateLimitedOperationType;
  /** How long the queue pauses. */
  waitMs: number;
  /** The server's limit, when it said. */
  limit: number | undefined;
  /** How many 429s this call has met so far. */
  count: number;
}

/**
 * Emitted once per attempt when a call has waited for its rate-limit permit longer than
 * `limits.waitingThresholdMs` (pacing is otherwise silent: `rateLimited` fires only on a 429).
 */
export interface WaitingEvent {
  operation: string;
  operationType: RateLimitedOperationType;
  /** The lane the call waits in. */
  priority: Priority;
  /** How long it has waited so far. */
  waitedMs: number;
  /**
   * An estimate of how much longer: until the limiter next asks the store, plus a window per
   * `limit` calls queued ahead. Undefined when the limiter cannot tell.
   */
  expectedMs: number | undefined;
  /**
   * `'budget'`: the key's budget is spent for now (by this client, another one, or another process
   * sharing the store); `'paused'`: every client of the key waits after a 429; `'learnt_limit'`:
   * the server's stated limit is lower than the one configured.
   */
  reason: WaitReason;
}

/** Emitted before a failed attempt is retried. */
export interface RetryEvent {
  operation: string;
  /** The attempt about to be made (2 for the first retry). */
  attempt: number;
  /** The error class of the failure (e.g. `'NetworkError'`), never its data. */
  error: string;
  retriesLeft: number;
}

/** The events of an `AdminClient`. None carries the API key or request variables. */
export interface ClientEventMap {
  request: RequestEvent;
  response: ResponseEvent;
  rateLimited: RateLimitedEvent;
  waiting: WaitingEvent;
  retry: RetryEvent;
}

/** A listener of one event. */
export type ClientEventListener<K extends keyof ClientEventMap> = (event: ClientEventMap[K]) => void;

/** A small typed emitter; a throwing listener never breaks a call. */
export class ClientEvents {
  readonly #listeners: { [K in keyof ClientEventMap]: Set<ClientEventListener<K>> } = {
    request: new Set(),
    response: new Set(),
    rateLimited: new Set(),
    waiting: new Set(),
    retry: new Set(),
  };

  /** Adds a listener; returns a function that removes it. */
  on<K extends keyof ClientEventMap>(name: K, listener: ClientEventListener<K>): () => void {
    const set = this.#listeners[name] as Set<ClientEventListener<K>>;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** True when someone listens to `name` (callers skip building events nobody reads). */
  listening(name: keyof ClientEventMap): boolean {
    return this.#listeners[name].size > 0;
  }

  emit<K extends keyof ClientEventMap>(name: K, event: ClientEventMap[K]): void {
    const set = this.#listeners[name] as Set<ClientEventListener<K>>;
    for (const listener of set) {
      try {
        listener(event);
      } catch {
        // A listener's bug must not turn a successful call into a failure.
      }
    }
  }
}
