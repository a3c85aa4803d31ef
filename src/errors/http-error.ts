import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of an {@link HttpError}. */
export interface HttpErrorOptions extends AdminApiErrorOptions {
  /** The HTTP status. */
  status: number;
}

/**
 * A non-2xx response that is neither a 429 nor an authentication failure, e.g. a 502 from a proxy.
 * 502, 503 and 504 are retried for operations that are safe to repeat.
 */
export class HttpError extends AdminApiError {
  override name = 'HttpError';
  /** The HTTP status. */
  override readonly status: number;

  constructor(message: string, options: HttpErrorOptions) {
    // A 4xx refuses the request; a 5xx (or a proxy's) may come after the operation ran.
    super(message, { ran: options.status < 500 ? 'no' : 'unknown', ...options });
    this.status = options.status;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { status: this.status };
  }
}
