import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';
import { isDocumentedCode, type ErrorCode } from './error-code-list.js';

/** Fields of a {@link CodedError}. */
export interface CodedErrorOptions extends AdminApiErrorOptions {
  /** The error code: a documented {@link ErrorCode}, or one the spec does not list, as sent. */
  code: ErrorCode | (string & {});
  /** The server's `details` object (`{}` when absent). */
  details?: Record<string, unknown>;
  /** The GraphQL `path` of the error. */
  path?: string[];
  /** The server's own message (the key already removed); absent for local errors. */
  serverMessage?: string;
  /** Values of a `valid_options=` hint, when the message has one. */
  validOptions?: string[];
  /** True when the server truncated the `valid_options=` list. */
  validOptionsTruncated?: boolean;
  /** True when the client raised it before sending anything. */
  local?: boolean;
}

/**
 * A coded error: the server raised `extensions.error.code` in the top-level `errors` array, or the
 * client refused an input the server surely would refuse with that code (`local: true`, nothing sent).
 * `ran` is `'no'` for a documented code (a refusal) and `'unknown'` for `GENERAL-001` (an unexpected
 * internal failure) or a code the spec does not list.
 *
 * @example
 * ```ts
 * try {
 *   await admin.bulkCreateMeetings(serviceId, rows, { atomic: true });
 * } catch (error) {
 *   if (error instanceof CodedError && error.code === 'MEETING-010') {
 *     await admin.bulkCreateMeetings(serviceId, rows); // videoconf rows cannot be atomic
 *   }
 * }
 * ```
 */
export class CodedError extends AdminApiError {
  override name = 'CodedError';
  /**
   * The error code, e.g. `'MEETING-004'`: one of the documented {@link ErrorCode}s, or a code the
   * spec does not list yet, kept as the server sent it.
   */
  readonly code: ErrorCode | (string & {});
  /** The server's `details` object, as sent but for any API key (`{}` when none or local). */
  readonly details: Record<string, unknown>;
  /** The GraphQL `path` of the error (e.g. `['createCouponGrant']`). */
  readonly path: string[];
  /** The server's message, without the API key. It may quote your input; it is left out of `toJSON()`. */
  readonly serverMessage: string | undefined;
  /** Values of a `valid_options=` hint in the server message, when there is one. */
  readonly validOptions: string[] | undefined;
  /** True when the server says the `valid_options=` list was truncated. */
  readonly validOptionsTruncated: boolean;
  /** True when the client raised it before sending anything. */
  readonly local: boolean;

  constructor(message: string, options: CodedErrorOptions) {
    // A documented code is a refusal; GENERAL-001 (an unexpected internal failure) or a code the
    // spec does not list may come after part of the work was done.
    super(message, { ran: isDocumentedCode(options.code) && options.code !== 'GENERAL-001' ? 'no' : undefined, ...options });
    this.code = options.code;
    this.details = options.details ?? {};
    this.path = options.path ?? [];
    this.serverMessage = options.serverMessage;
    this.validOptions = options.validOptions;
    this.validOptionsTruncated = options.validOptionsTruncated ?? false;
    this.local = options.local ?? false;
  }

  protected override jsonFields(): Record<string, unknown> {
    // Everything the server wrote is redacted; a documented code is the SDK's own word and stays.
    return {
      code: isDocumentedCode(this.code) ? this.code : this.redacted(this.code),
      local: this.local,
      path: this.redacted(this.path),
      details: this.redacted(this.details),
      validOptions: this.redacted(this.validOptions),
      validOptionsTruncated: this.validOptionsTruncated,
    };
  }
}
