import { parseRetryAfter } from '../retry/retry-after.js';
import type { HttpOutcome } from '../transport/graphql-transport.js';
import { extensionCodeOf, readGraphQLErrors } from './graphql-errors.js';

/** The documented fields of a 429 (spec, Limits rule 6), as far as the server sent them. */
export interface RateLimitInfo {
  operationType: 'mutations' | 'queries';
  /** `X-RateLimit-Limit` or `extensions.limit`. */
  limit: number | undefined;
  /**
   * How long to wait, in ms from now: the latest of `Retry-After` (seconds or HTTP-date),
   * `extensions.retry_after` (seconds), `extensions.reset_at` and `X-RateLimit-Reset` (Unix
   * seconds). Undefined when the response named none of them usably.
   */
  waitMs: number | undefined;
  /**
   * The smallest of the same hints: the earliest the server says a request may pass. Whole-second
   * hints are rounded up by servers, so this one is the closest to the moment the oldest counted
   * request frees (what tells the server's window).
   */
  earliestWaitMs: number | undefined;
  /** When the window frees up, Unix seconds, when the server said. */
  resetAt: number | undefined;
}

/** True when the outcome is the documented rate-limit rejection (HTTP 429 or its error code). */
export function isRateLimited(outcome: HttpOutcome): boolean {
  if (outcome.status === 429) return true;
  return readGraphQLErrors(outcome.body?.errors).some((entry) => extensionCodeOf(entry) === 'RATE_LIMIT_EXCEEDED');
}

/** Reads a 429's headers and body, each value checked; garbage is ignored, not guessed. */
export function readRateLimitInfo(
  outcome: HttpOutcome,
  fallbackType: 'mutations' | 'queries',
  nowMs: number,
): RateLimitInfo {
  const entry = readGraphQLErrors(outcome.body?.errors).find((item) => extensionCodeOf(item) === 'RATE_LIMIT_EXCEEDED');
  const extensions = entry?.extensions ?? {};
  const operationType =
    extensions.operation_type === 'mutations' || extensions.operation_type === 'queries' ? extensions.operation_type : fallbackType;
  const limit = positiveNumber(extensions.limit) ?? positiveNumber(outcome.headers.get('x-ratelimit-limit'));
  const resetAt = positiveNumber(extensions.reset_at) ?? positiveNumber(outcome.headers.get('x-ratelimit-reset'));
  const retryAfterSeconds = positiveNumber(extensions.retry_after);
  const candidates = [
    parseRetryAfter(outcome.headers.get('retry-after'), nowMs),
    retryAfterSeconds === undefined ? undefined : retryAfterSeconds * 1000,
    resetAt === undefined ? undefined : Math.max(0, resetAt * 1000 - nowMs),
  ].filter((value): value is number => value !== undefined && Number.isFinite(value)); // an overflowing hint is ignored, as the header is
  return {
    operationType,
    limit: limit === undefined ? undefined : Math.floor(limit),
    waitMs: candidates.length > 0 ? Math.max(...candidates) : undefined,
    earliestWaitMs: candidates.length > 0 ? Math.min(...candidates) : undefined,
    resetAt,
  };
}

function positiveNumber(value: unknown): number | undefined {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 ? number : undefined;
}
