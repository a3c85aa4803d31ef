import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of a {@link NetworkError}. */
export interface NetworkErrorOptions extends AdminApiErrorOptions {
  /** False only when the request surely never reached the server. */
  mayHaveReachedServer: boolean;
}

/**
 * No response arrived. `mayHaveReachedServer: false` means the request surely never reached the
 * server (e.g. connection refused); `true` means it may have been executed, so an operation that
 * is not safe to repeat was not retried: check the state before trying again.
 */
export class NetworkError extends AdminApiError {
  override name = 'NetworkError';
  /** False only when the request surely never reached the server. */
  readonly mayHaveReachedServer: boolean;

  constructor(message: string, options: NetworkErrorOptions) {
    super(message, options);
    this.mayHaveReachedServer = options.mayHaveReachedServer;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { mayHaveReachedServer: this.mayHaveReachedServer };
  }
}
