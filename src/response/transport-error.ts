import { InvalidResponseError } from '../errors/invalid-response-error.js';
import { NetworkError } from '../errors/network-error.js';
import { RedirectError } from '../errors/redirect-error.js';
import { TimeoutError } from '../errors/timeout-error.js';
import { describeNetworkFailure, networkFailureCode, neverReachedRemedy } from '../transport/network-failure.js';
import { TransportFailureSignal } from '../transport/transport-failure.js';
import { errorBase, type ErrorContext } from './error-context.js';

const PROBLEM_TEXT = {
  malformed_json: 'the response body was not valid JSON (cut short or corrupted)',
  not_json: 'the response body was not JSON',
  too_large: 'the response body exceeded maxResponseBytes',
  too_deep: 'the response body nested deeper than 256 levels, far beyond any answer of the API',
  missing_data: 'the response carried neither data nor errors',
  missing_payload: 'the response had no payload',
  missing_guaranteed_field: 'the payload lacked a field a successful answer always carries',
  invalid_number: 'the response held a number JavaScript cannot hold exactly',
  results_mismatch: 'the bulk answer held not one result per row sent',
} as const;

/** What the client knows of an attempt that a transport failure needs for its message. */
export interface AttemptTarget {
  /** The attempt's timeout (`timeoutMs`). */
  timeoutMs: number;
  /** The origin of `baseUrl` (a network error names where it could not connect). */
  origin: string;
}

/**
 * Turns a transport failure into the public error class; anything else (the caller's abort
 * reason) is returned unchanged.
 */
export function publicTransportError(error: unknown, context: ErrorContext, { timeoutMs, origin }: AttemptTarget): unknown {
  if (!(error instanceof TransportFailureSignal)) return error;
  const { failure } = error;
  const base = errorBase(context);
  switch (failure.kind) {
    case 'network': {
      const where = context.redactor.text(origin);
      return new NetworkError(
        `Failed to ${context.label}: ${context.redactor.text(describeNetworkFailure(failure.cause, where))} before a response arrived. ${
          failure.mayHaveReachedServer
            ? 'The request may have been executed; check before repeating it.'
            : `The request never reached the server; ${neverReachedRemedy(networkFailureCode(failure.cause), 'baseUrl')}.`
        }`,
        { ...base, mayHaveReachedServer: failure.mayHaveReachedServer, networkCode: networkFailureCode(failure.cause), origin: where, cause: sanitizedCause(failure.cause, context) },
      );
    }
    case 'timeout':
      return new TimeoutError(
        `Failed to ${context.label}: no complete response within ${timeoutMs} ms. The request may have been executed; check before repeating it.`,
        { ...base, timeoutMs },
      );
    case 'redirect': {
      const target = failure.origin === undefined ? 'elsewhere' : `to ${context.redactor.text(failure.origin)}`;
      return new RedirectError(
        `Failed to ${context.label}: the server answered HTTP ${failure.status}, a redirect ${target}, which the client never follows (the API key goes only to baseUrl's origin). The server may have executed the request before redirecting; check before repeating it, and point baseUrl at the API's final address.`,
        { ...base, status: failure.status, redirectOrigin: failure.origin },
      );
    }
    case 'body':
      return new InvalidResponseError(`Failed to ${context.label}: ${PROBLEM_TEXT[failure.problem]} (HTTP ${failure.status}).`, {
        ...base,
        status: failure.status,
        problem: failure.problem,
      });
  }
}

/**
 * A copy of a low-level error with only its name, message and code, redacted: a custom fetch's
 * error could carry the request (and the key); `util.inspect` of our error shows its cause.
 */
export function sanitizedCause(cause: unknown, context: ErrorContext): Error | undefined {
  if (!(cause instanceof Error)) return undefined;
  const copy = new Error(context.redactor.text(cause.message), {
    ...(cause.cause === undefined ? {} : { cause: sanitizedCause(cause.cause, context) }),
  });
  copy.name = cause.name;
  const { code } = cause as { code?: unknown };
  if (typeof code === 'string') Object.assign(copy, { code });
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}
