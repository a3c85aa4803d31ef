/** The error codes of the spec's "Errors" table. */
export type SpecErrorCode =
  | 'CONSULTING-001'
  | 'CONSULTING-002'
  | 'CONSULTING-003'
  | 'CONSULTING-004'
  | 'CONSULTING-005'
  | 'CONSULTING-006'
  | 'MEETING-001'
  | 'MEETING-003'
  | 'MEETING-004'
  | 'MEETING-006'
  | 'MEETING-007'
  | 'MEETING-008'
  | 'MEETING-009'
  | 'MEETING-010'
  | 'MEETING-011'
  | 'MEETING-012'
  | 'MEETING-013'
  | 'MEETING-014'
  | 'MEETING-015'
  | 'MEETING-016'
  | 'MEETING-017'
  | 'MEETING-018'
  | 'MEETING-019'
  | 'MEETING-020'
  | 'ENROLLMENT-001'
  | 'ENROLLMENT-002'
  | 'ENROLLMENT-005'
  | 'ENROLLMENT-006'
  | 'ENROLLMENT-007'
  | 'COUPON-001'
  | 'COUPON-002'
  | 'COUPON-003'
  | 'COUPON-004'
  | 'COUPON-005'
  | 'COUPON-006'
  | 'GENERAL-001';

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
