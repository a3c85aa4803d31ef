import type { Redactor } from '../errors/redactor.js';

/** What every error built for one call needs to know. */
export interface ErrorContext {
  /** The SDK method (`'grantCoupon'`) or `'request'`. */
  operation: string;
  /** How messages name the call: "Failed to <label>: ...", e.g. `'grant the coupon'`. */
  label: string;
  /** Hides the key and the call's variables. */
  redactor: Redactor;
}
