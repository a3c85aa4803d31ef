import type { Ran } from '../errors/admin-api-error.js';
import { isDocumentedCode } from '../errors/error-code-list.js';

/**
 * `error.type` of a failed call: a documented error code (`'COUPON-004'`: the conventions prefer a
 * code when there is one), else the error's class (`'RateLimitError'`, `'TimeoutError'`), else
 * `'_OTHER'`. Read from the error's fields rather than `instanceof`, so an error of another copy
 * of the SDK (its CommonJS build beside this ESM one) reads the same. A code the spec does not list
 * stays out: a server could put anything there, and `error.type` must stay a short list.
 */
export function errorType(error: unknown): string {
  if (!(error instanceof Error)) return '_OTHER';
  const { code } = error as { code?: unknown };
  if (error.name === 'CodedError' && typeof code === 'string' && isDocumentedCode(code)) return code;
  return error.name === '' ? '_OTHER' : error.name;
}

const RAN: ReadonlySet<unknown> = new Set<Ran>(['yes', 'no', 'unknown']);

/**
 * Whether a failed call's operation ran: the SDK error's `ran`; for anything else (a caller's abort
 * reason) `'no'` when no request of the call had left, else `'unknown'`.
 */
export function ranOf(error: unknown, attempts: number): Ran {
  const ran = (error as { ran?: unknown } | null | undefined)?.ran;
  if (RAN.has(ran)) return ran as Ran;
  return attempts === 0 ? 'no' : 'unknown';
}

/** The status description of a failed span: the SDK's message (it never holds the key or the variables). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
