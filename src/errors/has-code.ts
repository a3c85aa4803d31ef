import { CodedError } from './coded-error.js';
import type { ErrorCode } from './error-codes.js';

/**
 * Narrows an unknown error to a {@link CodedError} with the given code.
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
export function hasCode<C extends ErrorCode | (string & {})>(
  error: unknown,
  code: C,
): error is CodedError & { readonly code: C } {
  return error instanceof CodedError && error.code === code;
}
