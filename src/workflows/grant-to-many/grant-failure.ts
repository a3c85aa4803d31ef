import { AdminApiError } from '../../errors/admin-api-error.js';
import { AuthenticationError } from '../../errors/authentication-error.js';
import { CodedError } from '../../errors/coded-error.js';
import { DependencyLoadError } from '../../errors/dependency-load-error.js';
import { InvalidInputError } from '../../errors/invalid-input-error.js';
import type { GrantFailure } from './types.js';

/**
 * Coded errors about the coupon, not the member: every further grant would fail the same way
 * (COUPON-001 not found, COUPON-003 not restricted).
 */
const JOB_LEVEL_CODES: ReadonlySet<string> = new Set(['COUPON-001', 'COUPON-003']);

/** The parsed error of a failed grant, for the outcome, the journal and the report. */
export function describeGrantFailure(error: unknown): GrantFailure {
  const code = error instanceof CodedError ? error.code : undefined;
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  return { ...(code === undefined ? {} : { code }), message, name, cause: error };
}

/**
 * True when an error ends the whole job rather than one member's grant: the coupon is unusable,
 * the key is refused, a local input error (a bug in the caller), a module the SDK could not load
 * (the process is out of file descriptors), or anything that is not an SDK error at all (a bug).
 * Going on would spend the budget on grants that must fail. (A server that cannot be reached ends
 * the job too, by the job's own count: `UnreachableStreak`.)
 */
export function endsTheJob(error: unknown): boolean {
  if (!(error instanceof AdminApiError)) return true;
  if (error instanceof AuthenticationError || error instanceof InvalidInputError || error instanceof DependencyLoadError) return true;
  return error instanceof CodedError && (JOB_LEVEL_CODES.has(error.code) || error.local);
}

/** Unexpected server errors: a later run may well succeed. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(['GENERAL-001']);

/**
 * True when a failed grant would fail the same way if sent again: a coded error about the member
 * (e.g. ENROLLMENT-002, not a member of this school) or a payload refusal. No response, a timeout,
 * a rate limit that outlasted the retries and GENERAL-001 are temporary. A failure read back from
 * a journal has only its code, so one without a code counts as temporary there.
 *
 * @example
 * ```ts
 * isPermanentGrantFailure({ code: 'ENROLLMENT-002' }); // true
 * isPermanentGrantFailure({ name: 'NetworkError' });   // false
 * ```
 */
export function isPermanentGrantFailure(failure: { code?: string | undefined; name?: string | undefined }): boolean {
  if (failure.code !== undefined) return !TRANSIENT_CODES.has(failure.code);
  return failure.name === 'PayloadError';
}
