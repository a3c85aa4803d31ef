import type { Ran } from '../../errors/admin-api-error.js';
import { InvalidResponseError } from '../../errors/invalid-response-error.js';
import { payloadError } from '../../response/interpret-response.js';
import { errorBase, type ErrorContext } from '../../response/error-context.js';
import { isObject } from '../../response/graphql-errors.js';
import { payloadMessages } from '../../response/payload-messages.js';

/** The payload shape every documented mutation shares: a main object (or several) and `errors`. */
export interface PayloadLike {
  errors?: readonly string[] | null;
}

/**
 * Returns the payload's main object, or throws: `PayloadError` when the payload's `errors` list is
 * non-empty and the object is null (the spec's convention for model-validation and lifecycle
 * failures), `InvalidResponseError` when the object is missing without any message.
 */
export function requireMain<P extends PayloadLike, K extends keyof P>(
  payload: P | null | undefined,
  key: K,
  context: ErrorContext,
): NonNullable<P[K]> {
  if (!isObject(payload)) throw missing(context, 'the response has no payload for the operation', 'unknown');
  const main = payload[key];
  const messages = payloadMessages(payload.errors);
  if (main === null || main === undefined) {
    if (messages.length > 0) throw payloadError(messages, context);
    // The payload itself came back: the operation ran.
    throw missing(context, `the payload has no ${String(key)} and no error message`, 'yes');
  }
  return main as NonNullable<P[K]>;
}

function missing(context: ErrorContext, what: string, ran: Ran): InvalidResponseError {
  return new InvalidResponseError(`Failed to ${context.label}: ${what}.`, {
    ...errorBase(context),
    status: context.response?.status ?? 200,
    problem: 'missing_payload',
    ran,
  });
}
