import type { OperationType } from '../rate-limit/classify-operation.js';
import type { SimulatorResponse } from './simulator-request.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** A JSON response. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): SimulatorResponse {
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** A response whose body is one GraphQL error with `extensions`. */
export function errorResponse(
  status: number,
  message: string,
  extensions: Record<string, unknown>,
  headers: Record<string, string> = {},
): SimulatorResponse {
  return jsonResponse(status, { errors: [{ message, extensions }] }, headers);
}

/** What a 429 reports. */
export interface RateLimitDetails {
  operationType: OperationType;
  limit: number;
  windowMs: number;
  retryAfterMs: number;
  resetAtMs: number;
}

/**
 * The spec's 429: headers `Retry-After` (whole seconds, at least 1), `X-RateLimit-Limit` and
 * `X-RateLimit-Reset` (Unix seconds), and `errors[0].extensions` with `code`
 * `RATE_LIMIT_EXCEEDED`, `operation_type`, `limit`, `retry_after` and `reset_at`.
 */
export function rateLimitedResponse(details: RateLimitDetails): SimulatorResponse {
  const retryAfter = Math.max(1, Math.ceil(details.retryAfterMs / 1000));
  const resetAt = Math.ceil(details.resetAtMs / 1000);
  const kind = details.operationType;
  const message = `Rate limit exceeded: at most ${details.limit} ${kind} per ${details.windowMs / 1000} seconds for this API key. Retry after ${retryAfter} seconds.`;
  return errorResponse(
    429,
    message,
    { code: 'RATE_LIMIT_EXCEEDED', operation_type: kind, limit: details.limit, retry_after: retryAfter, reset_at: resetAt },
    { 'retry-after': String(retryAfter), 'x-ratelimit-limit': String(details.limit), 'x-ratelimit-reset': String(resetAt) },
  );
}
