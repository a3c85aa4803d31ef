import type { AdminApiErrorOptions } from '../errors/admin-api-error.js';
import type { Redactor } from '../errors/redactor.js';
import type { AnsweredAttempt } from './response-metadata.js';

/** What every error built for one call needs to know. */
export interface ErrorContext {
  /** The SDK method (`'grantCoupon'`) or `'request'`. */
  operation: string;
  /** How messages name the call: "Failed to <label>: ...", e.g. `'grant the coupon'`. */
  label: string;
  /** Hides the key and the call's variables. */
  redactor: Redactor;
  /** The call's id, once the call was made. */
  callId?: string;
  /** The response the error comes with, once one arrived. */
  response?: AnsweredAttempt;
}

/**
 * The options every error of the call shares: operation, redactor, call id and, when the error
 * comes with a response, its status, headers and request id. Every error built from a context
 * goes through here, so none that had a response can miss it.
 */
export function errorBase(context: ErrorContext): Pick<AdminApiErrorOptions, 'operation' | 'redactor' | 'callId' | 'response'> {
  return {
    operation: context.operation,
    redactor: context.redactor,
    ...(context.callId === undefined ? {} : { callId: context.callId }),
    ...(context.response === undefined ? {} : { response: context.response.metadata }),
  };
}
