import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of an {@link InvalidResponseError}. */
export interface InvalidResponseErrorOptions extends AdminApiErrorOptions {
  /** The HTTP status of the unusable response. */
  status: number;
  /** What was wrong, e.g. `'malformed_json'`. */
  problem: InvalidResponseProblem;
}

/**
 * What made a response unusable. `'missing_guaranteed_field'`: the payload reported success but a
 * field that a successful answer always carries (non-null in the result types) was null or
 * missing; the operation was probably applied. `'too_deep'`: nested deeper than 256 levels.
 * `'invalid_number'`: a number JavaScript cannot hold exactly (see {@link InvalidResponseError}).
 */
export type InvalidResponseProblem =
  | 'malformed_json'
  | 'not_json'
  | 'missing_data'
  | 'missing_payload'
  | 'missing_guaranteed_field'
  | 'too_large'
  | 'too_deep'
  | 'invalid_number';

/**
 * A 2xx response the client cannot use: a body that is not JSON or is cut short, one over
 * `maxResponseBytes`, one nesting deeper than 256 levels (`too_deep`), one with neither `data`
 * nor `errors`, or one holding a number that would reach you wrong (`invalid_number`: an integer
 * field beyond 2^53, a 400-digit timestamp, a number JSON overflows to Infinity). The request reached the server, so
 * it may have been executed.
 */
export class InvalidResponseError extends AdminApiError {
  override name = 'InvalidResponseError';
  /** The HTTP status. */
  override readonly status: number;
  /** What was wrong. */
  readonly problem: InvalidResponseProblem;

  constructor(message: string, options: InvalidResponseErrorOptions) {
    super(message, options);
    this.status = options.status;
    this.problem = options.problem;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { status: this.status, problem: this.problem };
  }
}
