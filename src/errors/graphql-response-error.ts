import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';
// For the TSDoc links only (a type import leaves no trace in the built module).
import type { GraphQLRequestError } from './graphql-request-error.js';

/** Where an error stands in the document the server was sent (1-based). */
export interface GraphQLErrorLocation {
  /** The line, from 1. */
  readonly line: number;
  /** The column, from 1. */
  readonly column: number;
}

/**
 * One entry of a response's top-level `errors` array, as the server sent it but for any API key it
 * echoed (see {@link GraphQLResponseError.graphQLErrors}).
 */
export interface GraphQLErrorDetail {
  /** The server's message. It may quote your input. */
  readonly message: string;
  /** Where in the document the error stands; empty when the server named no place. */
  readonly locations: readonly GraphQLErrorLocation[];
  /** The response field the error belongs to (list indexes as strings); empty for an error of the whole request. */
  readonly path: readonly string[];
  /** `extensions` as sent (`{}` when absent), e.g. `{ code: 'GRAPHQL_VALIDATION_FAILED' }`. */
  readonly extensions: Readonly<Record<string, unknown>>;
}

/** Fields of a {@link GraphQLResponseError}. */
export interface GraphQLResponseErrorOptions extends AdminApiErrorOptions {
  /** The server's messages (without the API key). */
  messages: string[];
  /** The server's error entries (without the API key); `[]` when not given. */
  graphQLErrors?: readonly GraphQLErrorDetail[];
  /** `extensions.code` of the first error, when the server sent one. */
  serverCode?: string;
  /**
   * True when the response's `data` held the operation's result alongside the errors.
   * @deprecated Pass `ran: 'yes'`; `executed` goes in the next minor version.
   */
  executed?: boolean;
  /** The response's `data` when it ran. */
  data?: Record<string, unknown>;
}

/**
 * Top-level GraphQL errors without a documented error code.
 *
 * - Raised while the operation ran (`data` present, the error's `path` naming a field): e.g. a
 *   resolver's internal failure that the server masks ("Unexpected error."). When `data` is null
 *   and the error's path names a mutation field, the mutation was started and failed: GraphQL nulls
 *   `data` whatever the resolver had already done, so it **may have run** (`ran: 'unknown'`: the
 *   answer does not show whether it ran). It is never sent again; check before repeating it.
 * - Raised before anything ran (a document the server's schema refuses): the subclass
 *   {@link GraphQLRequestError} (`ran: 'no'`).
 * - An answer that shows the operation ran (its `data` holds a result) but comes with errors or a
 *   non-2xx status, e.g. a `RATE_LIMIT_EXCEEDED` error on a nested field: then `ran` is `'yes'`,
 *   `data` holds what the server returned, and the call was not sent again.
 *
 * @example
 * ```ts
 * try {
 *   await admin.createCoupon(input);
 * } catch (error) {
 *   if (error instanceof GraphQLRequestError) {
 *     // Nothing ran: the server refused the document (error.graphQLErrors, error.missingFields).
 *   } else if (error instanceof GraphQLResponseError && error.ran === 'yes') {
 *     // The coupon exists: do not create it again. Its payload is in error.data.
 *   } else if (error instanceof GraphQLResponseError) {
 *     // It may have run: look the coupon up before creating it again.
 *   }
 * }
 * ```
 */
export class GraphQLResponseError extends AdminApiError {
  override name = 'GraphQLResponseError';
  /** The server's messages (without the API key). They may quote your input. */
  readonly messages: string[];
  /**
   * The server's error entries with their `locations`, `path` and `extensions`, without the API
   * key. They may quote your input; `toJSON()` shows them without the request's variables.
   */
  readonly graphQLErrors: readonly GraphQLErrorDetail[];
  /** `extensions.code` of the first error, when there is one. */
  readonly serverCode: string | undefined;
  /**
   * `ran === 'yes'`: the response's `data` held the operation's result.
   *
   * False only said the answer does not show that it ran, not that it did not run: a
   * {@link GraphQLRequestError} surely did not run, but a mutation that failed after it started may
   * have; {@link AdminApiError.ran} tells the two apart (`'no'`, `'unknown'`).
   * @deprecated Use `ran` (`'yes'`, `'no'` or `'unknown'`); `executed` goes in the next minor version.
   */
  readonly executed: boolean;
  /** The response's `data` as sent when it ran (it may quote your input; left out of `toJSON()`). */
  readonly data: Record<string, unknown> | undefined;

  constructor(message: string, options: GraphQLResponseErrorOptions) {
    super(message, options.executed === true ? { ...options, ran: 'yes' } : options);
    this.messages = options.messages;
    this.graphQLErrors = options.graphQLErrors ?? [];
    this.serverCode = options.serverCode;
    this.executed = this.ran === 'yes';
    this.data = options.data;
  }

  protected override jsonFields(): Record<string, unknown> {
    return {
      messages: this.redacted(this.messages),
      graphQLErrors: this.redacted(this.graphQLErrors),
      serverCode: this.redacted(this.serverCode),
      executed: this.executed,
    };
  }
}
