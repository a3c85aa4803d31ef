import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of a {@link TimeoutError}. */
export interface TimeoutErrorOptions extends AdminApiErrorOptions {
  /** The per-attempt timeout that was exceeded, in milliseconds. */
  timeoutMs: number;
}

/**
 * An attempt got no complete response within `timeoutMs`. The request may have reached the server,
 * so operations that are not safe to repeat are not retried after a timeout.
 */
export class TimeoutError extends AdminApiError {
  override name = 'TimeoutError';
  /** The per-attempt timeout that was exceeded. */
  readonly timeoutMs: number;
  /** Always true: a timed-out request may have been executed. */
  readonly mayHaveReachedServer = true;

  constructor(message: string, options: TimeoutErrorOptions) {
    super(message, options);
    this.timeoutMs = options.timeoutMs;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { timeoutMs: this.timeoutMs, mayHaveReachedServer: true };
  }
}
