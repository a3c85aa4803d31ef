import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of an {@link InvalidResponseError}. */
export interface InvalidResponseErrorOptions extends AdminApiErrorOptions {
  /** The HTTP status of the unusable response. */
  status: number;
  /** What was wrong, e.g. `'malformed_json'`. */
  problem: InvalidResponseProblem;
  /**
   * True when the answer shows the operation ran (its payload came back).
   * @deprecated Pass `ran: 'yes'`; `executed` goes in the next minor version.
   */
  executed?: boolean;
}

/**
 * What made a response unusable. `'missing_guaranteed_field'`: the payload reported success but a
 * field that a successful answer always carries (non-null in the result types) was null or
 * missing; the operation was applied. `'too_deep'`: nested deeper than 256 levels.
 * `'invalid_number'`: a number JavaScript cannot hold exactly (see {@link InvalidResponseError}).
 * `'results_mismatch'`: a bulk answer whose `results` are not one per row sent (fewer, more, or
 * none), so `results[i]` cannot be matched to row `i`; the rows were processed.
 */
export type InvalidResponseProblem =
  | 'malformed_json'
  | 'not_json'
  | 'missing_data'
  | 'missing_payload'
  | 'missing_guaranteed_field'
  | 'too_large'
  | 'too_deep'
  | 'invalid_number'
  | 'results_mismatch';

/**
 * A 2xx response the client cannot use: a body that is not JSON or is cut short, one over
 * `maxResponseBytes`, one nesting deeper than 256 levels (`too_deep`), one with neither `data`
 * nor `errors`, one holding a number that would reach you wrong (`invalid_number`: an integer
 * field beyond 2^53, a 400-digit timestamp, a number JSON overflows to Infinity), or a bulk answer
 * whose results do not match the rows (`results_mismatch`). The request reached the server, so it
 * may have been executed: `ran` is `'yes'` when the answer shows it was (do not send it again
 * without checking what it did), else `'unknown'`.
 */
export class InvalidResponseError extends AdminApiError {
  override name = 'InvalidResponseError';
  /** The HTTP status. */
  override readonly status: number;
  /** What was wrong. */
  readonly problem: InvalidResponseProblem;
  /**
   * `ran === 'yes'`: the answer shows the operation ran (its payload came back:
   * `missing_guaranteed_field`, `invalid_number`, `results_mismatch`, a payload without its
   * object); false when it may or may not have run (the body could not be read at all).
   * @deprecated Use `ran` (`'yes'` or `'unknown'` here); `executed` goes in the next minor version.
   */
  readonly executed: boolean;

  constructor(message: string, options: InvalidResponseErrorOptions) {
    super(message, options.executed === true ? { ...options, ran: 'yes' } : options);
    this.status = options.status;
    this.problem = options.problem;
    this.executed = this.ran === 'yes';
  }

  protected override jsonFields(): Record<string, unknown> {
    return { status: this.status, problem: this.problem, executed: this.executed };
  }
}
