import type { RateLimitedOperationType } from '../rate-limit/bucket-name.js';

/** Emitted before each attempt is sent. */
export interface RequestEvent {
  /** The SDK method, e.g. `'grantCoupon'` (or `'request'`). */
  operation: string;
  /** Which rate-limit budget the document counts against: `'mutations'` or `'queries'`. */
  operationType: RateLimitedOperationType;
  /** 1 for the first attempt. */
  attempt: number;
}

/** Emitted when an attempt got an HTTP response (any status). */
export interface ResponseEvent {
  /** The SDK method, e.g. `'grantCoupon'` (or `'request'`). */
  operation: string;
  /** Which rate-limit budget the document counts against: `'mutations'` or `'queries'`. */
  operationType: RateLimitedOperationType;
  /** 1 for the first attempt. */
  attempt: number;
  /** The HTTP status. */
  status: number;
  /** From sending the attempt to the end of its response. */
  durationMs: number;
}

/** Emitted when a 429 pauses the operation type's queue. */
export interface RateLimitedEvent {
  /** The SDK method, e.g. `'grantCoupon'` (or `'request'`). */
  operation: string;
  /** Which rate-limit budget the document counts against: `'mutations'` or `'queries'`. */
  operationType: RateLimitedOperationType;
  /** How long the queue pauses. */
  waitMs: number;
  /** The server's limit, when it said. */
  limit: number | undefined;
  /** How many 429s this call has met so far. */
  count: number;
}

/** Emitted before a failed attempt is retried. */
export interface RetryEvent {
  /** The SDK method, e.g. `'grantCoupon'` (or `'request'`). */
  operation: string;
  /** The attempt about to be made (2 for the first retry). */
  attempt: number;
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
  /** Before a failed attempt is retried. */
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
