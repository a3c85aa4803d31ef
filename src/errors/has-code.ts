import { CodedError } from './coded-error.js';
import type { ErrorCode } from './error-codes.js';

/**
 * The codes {@link hasCode} accepts for `C`: a documented {@link ErrorCode} when written as a
 * literal (so a typo such as `'COUPON-03'` does not compile), or any value typed `string` (a code
 * read at run time, possibly one the spec does not list yet).
 */
export type KnownCode<C extends string> = string extends C ? C : C extends ErrorCode ? C : ErrorCode;

/** A {@link CodedError} whose `code` is known to be `C` (what {@link hasCode} narrows to). */
export interface CodedWith<C extends string> extends CodedError {
  /** The code {@link hasCode} checked for. */
  readonly code: C;
}

/**
 * Narrows an unknown error to a {@link CodedError} with the given code. A literal code must be
 * one the spec documents: `hasCode(error, 'COUPON-03')` is a compile error, `hasCode(error,
 * 'COUPON-003')` narrows `error.code` to `'COUPON-003'`. A code typed `string` is accepted as is.
 *
 * @example
 * ```ts
 * try {
 *   await admin.enrollStudent(meetingId, { userId });
 * } catch (error) {
 *   if (hasCode(error, 'MEETING-004')) console.log('full, try another slot');
 *   else throw error;
 * }
 * ```
 */
export function hasCode<const C extends string>(error: unknown, code: KnownCode<C>): error is CodedWith<C> {
  return error instanceof CodedError && error.code === code;
}
