import type { ErrorCode } from '../../errors/error-codes.js';

/**
 * The error codes of the spec's "Errors" table: the client's {@link ErrorCode} union, so the
 * simulator cannot raise a code the client does not know (nor the client drop one the simulator
 * raises) without a compile error.
 */
export type SpecErrorCode = ErrorCode;

/**
 * A rule failure with a spec error code. Thrown by resolvers; the executor turns it into an entry
 * of the top-level `errors` array (`extensions.error = { code, message, details }`, `data: null`).
 * Bulk rows catch it and turn it into a row error string instead.
 */
export class CodedFailure extends Error {
  override name = 'CodedFailure';

  constructor(
    readonly code: SpecErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** The row-error text of bulk results: the code, then the message (`MEETING-012: ...`). */
  toRowText(): string {
    return `${this.code}: ${this.message}`;
  }
}

/** Throws a {@link CodedFailure}; reads as a rule in resolvers (`if (!meeting) fail(...)`). */
export function fail(code: SpecErrorCode, message: string, details: Record<string, unknown> = {}): never {
  throw new CodedFailure(code, message, details);
}
