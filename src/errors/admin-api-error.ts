import { NO_SECRETS, type Redactor } from './redactor.js';

/** Options shared by every error the SDK throws. */
export interface AdminApiErrorOptions {
  /** The SDK method or GraphQL operation that failed, e.g. `'grantCoupon'`. */
  operation: string;
  /** The lower-level error, when there is one. Never a value that holds the API key. */
  cause?: unknown;
  /**
   * Hides the key and the request's variables from what `toJSON()` shows of server data. The
   * message itself is only stripped of API keys: whoever builds it redacts the server's parts with
   * `redactor.text()` first, so the SDK's own wording is never garbled.
   * @internal
   */
  redactor?: Redactor;
}

/**
 * The base class of every error the SDK throws, so one `instanceof` check catches them all.
 * Messages read "Failed to <operation>: <reason>. <remedy>" and never contain the API key or the
 * request's variables (member emails and the like).
 *
 * @example
 * ```ts
 * try {
 *   await admin.grantCoupon(couponId, { email });
 * } catch (error) {
 *   if (error instanceof AdminApiError) console.error(error.operation, error.message);
 * }
 * ```
 */
export class AdminApiError extends Error {
  /** The class name (`'CodedError'`, `'RateLimitError'`, ...), so logs and `toJSON()` show what was thrown. */
  override name = 'AdminApiError';
  /** The SDK method or GraphQL operation that failed. */
  readonly operation: string;
  readonly #redactor: Redactor;

  constructor(message: string, options: AdminApiErrorOptions) {
    const redactor = options.redactor ?? NO_SECRETS;
    super(redactor.secret(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.operation = options.operation;
    this.#redactor = redactor;
  }

  /**
   * What `JSON.stringify(error)` shows: the stable fields callers branch on, with server text
   * redacted, never the cause (which may carry request data).
   */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, operation: this.operation, ...this.jsonFields() };
  }

  /** Subclasses add their own stable fields to {@link AdminApiError.toJSON} here. */
  protected jsonFields(): Record<string, unknown> {
    return {};
  }

  /** Server-provided data as `toJSON()` may show it: without the key or the request's variables. */
  protected redacted(value: unknown): unknown {
    return this.#redactor.deep(value);
  }
}
