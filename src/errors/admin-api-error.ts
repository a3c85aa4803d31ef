import type { ResponseHeaders, ResponseMetadata } from '../response/response-metadata.js';
import { NO_SECRETS, type Redactor } from './redactor.js';

/**
 * Whether the operation of a failed call ran on the server:
 * - `'yes'`: the answer shows it ran (its result came back, with errors or an unusable part): do
 *   not send it again blindly;
 * - `'no'`: it surely did not (refused before running, never sent, never reached the server, a
 *   429, a documented error code): sending it again cannot do it twice;
 * - `'unknown'`: it may have (a timeout, a lost connection, a 5xx, an error raised while it ran
 *   without its result): check before repeating an operation that changes data.
 *
 * Three strings rather than a boolean: `executed: false` used to mean both "did not run" and
 * "the answer does not show it ran", and a mutation that failed after it started got the latter.
 */
export type Ran = 'yes' | 'no' | 'unknown';

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
  /** The id of the call that failed (as on its events); absent for errors raised before a call was made. */
  callId?: string;
  /** The HTTP response the error came with, when there was one (credentials already redacted). */
  response?: ResponseMetadata;
  /**
   * Whether the operation ran (see {@link Ran}).
   * @default `'unknown'` for an error of a call; `'no'` for one raised before any call was made (no `callId`)
   */
  ran?: Ran | undefined;
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
  /**
   * The id of the call that failed, as on its events and log lines (`'call_...'`); undefined when
   * the error was raised before any call was made (a refused input or option).
   */
  readonly callId: string | undefined;
  /** The HTTP status of the response the error came with; undefined when there was none (network failure, timeout, local error). */
  readonly status: number | undefined;
  /**
   * The headers of the response the error came with, names lower-cased, credentials redacted
   * (see {@link ResponseMetadata.headers}); undefined when there was no response.
   */
  readonly headers: ResponseHeaders | undefined;
  /**
   * The server's id of the request, from the response's request-id header (client option
   * `requestIdHeaders`; the spec does not name one): quote it to the API's support. Undefined
   * when there was no response or it carried none.
   */
  readonly requestId: string | undefined;
  /**
   * Whether the operation ran on the server: `'yes'`, `'no'` or `'unknown'` (see {@link Ran}).
   * Branch on it before repeating a call that changes data; OpenTelemetry spans carry the same
   * value (`school_admin.ran`, `school-admin-sdk/otel`).
   *
   * @example
   * ```ts
   * if (error instanceof AdminApiError && error.ran === 'no') await admin.createCoupon(input); // nothing was created
   * ```
   */
  readonly ran: Ran;
  readonly #redactor: Redactor;

  constructor(message: string, options: AdminApiErrorOptions) {
    const redactor = options.redactor ?? NO_SECRETS;
    super(redactor.secret(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.operation = options.operation;
    this.callId = options.callId;
    this.status = options.response?.status;
    this.headers = options.response?.headers;
    this.requestId = options.response?.requestId;
    // An error raised before any call was made (a refused input) sent nothing.
    this.ran = options.ran ?? (options.callId === undefined ? 'no' : 'unknown');
    this.#redactor = redactor;
  }

  /**
   * What `JSON.stringify(error)` shows: the stable fields callers branch on, with server text
   * redacted (the key and the request's variables, headers and request id included), never the
   * cause (which may carry request data).
   */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      operation: this.operation,
      callId: this.callId,
      status: this.status,
      requestId: this.redacted(this.requestId),
      headers: this.redacted(this.headers),
      ran: this.ran,
      ...this.jsonFields(),
    };
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
