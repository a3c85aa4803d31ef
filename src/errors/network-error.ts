import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of a {@link NetworkError}. */
export interface NetworkErrorOptions extends AdminApiErrorOptions {
  /** False only when the request surely never reached the server. */
  mayHaveReachedServer: boolean;
  /** The failure's code from the runtime or the OS (`'ECONNREFUSED'`, ...), when it gave one. */
  networkCode?: string | undefined;
  /** The origin of `baseUrl` the request was for. */
  origin?: string | undefined;
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
  /**
   * The failure's code from the runtime or the OS, e.g. `'ECONNREFUSED'` (nothing listens at
   * `baseUrl`), `'ENOTFOUND'` (its host name does not resolve), `'ECONNRESET'`; undefined when the
   * runtime gave none (Deno's fetch).
   */
  readonly networkCode: string | undefined;
  /**
   * The origin of `baseUrl` the request was for (scheme, host and port, e.g.
   * `'https://school.example'`): where to look when the server cannot be reached. Never a path.
   */
  readonly origin: string | undefined;

  constructor(message: string, options: NetworkErrorOptions) {
    super(message, { ran: options.mayHaveReachedServer ? 'unknown' : 'no', ...options });
    this.mayHaveReachedServer = options.mayHaveReachedServer;
    this.networkCode = options.networkCode;
    this.origin = options.origin;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { mayHaveReachedServer: this.mayHaveReachedServer, networkCode: this.networkCode, origin: this.origin };
  }
}
