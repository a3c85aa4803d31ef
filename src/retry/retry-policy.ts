import { HttpError } from '../errors/http-error.js';
import { InvalidResponseError } from '../errors/invalid-response-error.js';
import { NetworkError } from '../errors/network-error.js';
import { RedirectError } from '../errors/redirect-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import type { RetrySafety } from '../client/facade/operations.js';

const RETRYABLE_STATUSES = new Set([502, 503, 504]);

/**
 * Whether a failed attempt is tried again (429s are handled apart, by pausing the queue).
 *
 * | failure | idempotent operation | unsafe operation |
 * |---|---|---|
 * | network error, request surely never reached the server | retry | retry |
 * | network error that may have reached the server | retry | no (`NetworkError`) |
 * | timeout | retry | no (`TimeoutError`) |
 * | HTTP 502, 503, 504 | retry | no (`HttpError`) |
 * | a redirect (never followed) | no (`RedirectError`) | no |
 * | unparseable 2xx body | retry | no (`InvalidResponseError`) |
 * | coded, payload, auth, other HTTP errors | no | no |
 * | request error (`GraphQLRequestError`: refused before running; the same document would be refused again) | no | no |
 * | GraphQL error while it ran, result not shown (`GraphQLResponseError`, `ran: 'unknown'`: it may have run) | no | no |
 */
export function isRetryable(error: unknown, safety: RetrySafety): boolean {
  if (error instanceof NetworkError) return safety === 'idempotent' || !error.mayHaveReachedServer;
  if (safety !== 'idempotent') return false;
  if (error instanceof TimeoutError) return true;
  if (error instanceof RedirectError) return false;
  if (error instanceof HttpError) return RETRYABLE_STATUSES.has(error.status);
  if (error instanceof InvalidResponseError) return error.problem === 'malformed_json' || error.problem === 'not_json';
  return false;
}
