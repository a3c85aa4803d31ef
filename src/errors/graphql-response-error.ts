import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of a {@link GraphQLResponseError}. */
export interface GraphQLResponseErrorOptions extends AdminApiErrorOptions {
  /** The server's messages (without the API key). */
  messages: string[];
  /** `extensions.code` of the first error, when the server sent one. */
  serverCode?: string;
  /** True when the response's `data` held the operation's result alongside the errors. */
  executed?: boolean;
  /** The response's `data` when `executed`. */
  data?: Record<string, unknown>;
}

/**
 * Top-level GraphQL errors without a documented error code, e.g. a document the server's schema
 * rejects (a field that does not exist there) when using `request()`.
 *
 * Also thrown when an answer shows that the operation ran (its `data` holds a result) but comes
 * with errors or a non-2xx status, e.g. a `RATE_LIMIT_EXCEEDED` error on a nested field: then
 * `executed` is true, `data` holds what the server returned, and the call was not sent again.
 *
 * @example
 * ```ts
 * try {
 *   await admin.createCoupon(input);
 * } catch (error) {
 *   if (error instanceof GraphQLResponseError && error.executed) {
 *     // The coupon exists: do not create it again. Its payload is in error.data.
 *   }
 * }
 * ```
 */
export class GraphQLResponseError extends AdminApiError {
  override name = 'GraphQLResponseError';
  /** The server's messages (without the API key). They may quote your input. */
  readonly messages: string[];
  /** `extensions.code` of the first error, when there is one. */
  readonly serverCode: string | undefined;
  /**
   * True when the response's `data` held the operation's result: it ran, and the client did not
   * send it again. Never repeat such a call blindly; its result is in {@link GraphQLResponseError.data}.
   */
  readonly executed: boolean;
  /** The response's `data` as sent when `executed` (it may quote your input; left out of `toJSON()`). */
  readonly data: Record<string, unknown> | undefined;

  constructor(message: string, options: GraphQLResponseErrorOptions) {
    super(message, options);
    this.messages = options.messages;
    this.serverCode = options.serverCode;
    this.executed = options.executed ?? false;
    this.data = options.data;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { messages: this.redacted(this.messages), serverCode: this.redacted(this.serverCode), executed: this.executed };
  }
}
