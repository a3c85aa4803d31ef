import { HttpError, type HttpErrorOptions } from './http-error.js';

/** Fields of a {@link RedirectError}. */
export interface RedirectErrorOptions extends HttpErrorOptions {
  /** The origin of the `Location` target (no path, query or credentials), when there was one. */
  redirectOrigin: string | undefined;
}

/**
 * The server answered with a redirect (301, 302, 303, 307, 308), or a browser-like fetch reported
 * an opaque redirect (`status` 0). The client never follows redirects: the API key goes only to
 * `baseUrl`'s origin, and a POST is never sent again somewhere else. The request reached the server
 * that redirected (a 303 usually means it was executed), so it is not retried. A subclass of
 * {@link HttpError}, so existing `instanceof HttpError` handling still sees it.
 *
 * @example
 * ```ts
 * try {
 *   await admin.createCoupon(input);
 * } catch (error) {
 *   if (error instanceof RedirectError) console.error(`baseUrl moved to ${error.redirectOrigin ?? 'an unknown place'}`);
 * }
 * ```
 */
export class RedirectError extends HttpError {
  override name = 'RedirectError';
  /**
   * The origin (`scheme://host:port`) the server redirected to, never the full `Location` (its
   * path, query and credentials can carry tokens). Undefined when the target was not given, not an
   * http(s) URL, or hidden by the runtime (an opaque redirect).
   */
  readonly redirectOrigin: string | undefined;

  constructor(message: string, options: RedirectErrorOptions) {
    // The server may have run it before redirecting.
    super(message, { ran: 'unknown', ...options });
    this.redirectOrigin = options.redirectOrigin;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { ...super.jsonFields(), redirectOrigin: this.redacted(this.redirectOrigin) };
  }
}
