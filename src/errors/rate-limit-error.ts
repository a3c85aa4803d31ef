import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of a {@link RateLimitError}. */
export interface RateLimitErrorOptions extends AdminApiErrorOptions {
  /** Which counter was exhausted. */
  operationType: 'mutations' | 'queries';
  /** The server's limit for that counter, when it said. */
  limit: number | undefined;
  /** How long the server asked to wait, in milliseconds. */
  retryAfterMs: number;
  /** When the server's window frees up (Unix seconds), when it said. */
  resetAt: number | undefined;
}

/**
 * A 429 the client could not get past: retries ran out (`maxRetries` 429s in one call), or the next
 * wait would take the call's total waiting past `maxRateLimitWaitMs`. The request was not executed.
 * Normally the client's pacing prevents 429s; they come when another client spends the same key's
 * budget.
 */
export class RateLimitError extends AdminApiError {
  override name = 'RateLimitError';
  /** Refused as a whole: it did not run. */
  override readonly ran = 'no';
  /** Which counter was exhausted. */
  readonly operationType: 'mutations' | 'queries';
  /** The server's limit for that counter, when it said. */
  readonly limit: number | undefined;
  /** How long the next wait would have been, in milliseconds (the server's hint, at least the fallback backoff). */
  readonly retryAfterMs: number;
  /** When the server's window frees up (Unix seconds), when it said. */
  readonly resetAt: number | undefined;

  constructor(message: string, options: RateLimitErrorOptions) {
    super(message, options);
    this.operationType = options.operationType;
    this.limit = options.limit;
    this.retryAfterMs = options.retryAfterMs;
    this.resetAt = options.resetAt;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { operationType: this.operationType, limit: this.limit, retryAfterMs: this.retryAfterMs, resetAt: this.resetAt };
  }
}
