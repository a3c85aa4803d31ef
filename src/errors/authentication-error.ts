import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of an {@link AuthenticationError}. */
export interface AuthenticationErrorOptions extends AdminApiErrorOptions {
  /** The HTTP status (200 when the server reported it as a GraphQL error). */
  status: number;
  /** The server's GraphQL error code, when it sent one (e.g. `'UNAUTHENTICATED'`). */
  serverCode?: string;
}

/**
 * The key is missing, invalid or lacks a scope. The spec does not show how the server answers
 * these; the client recognises HTTP 401/403 and GraphQL errors whose `extensions.code` is one of
 * `authErrorCodes` (client option).
 */
export class AuthenticationError extends AdminApiError {
  override name = 'AuthenticationError';
  /** Refused as a whole: it did not run. */
  override readonly ran = 'no';
  /** The HTTP status (200 when the server reported it as a GraphQL error). */
  override readonly status: number;
  /** The server's GraphQL error code, when it sent one. */
  readonly serverCode: string | undefined;

  constructor(message: string, options: AuthenticationErrorOptions) {
    super(message, options);
    this.status = options.status;
    this.serverCode = options.serverCode;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { status: this.status, serverCode: this.redacted(this.serverCode) };
  }
}
