import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of an {@link InvalidInputError}. */
export interface InvalidInputErrorOptions extends AdminApiErrorOptions {
  /** The input field at fault, e.g. `'amount'`. */
  field: string;
}

/**
 * An input the server would reject without a code (a percentage amount outside (0, 100], an
 * `expiredAt` not after `startedAt`, a malformed argument), or a number that does not fit its
 * schema type: `Int` not a 32-bit integer, `Float` not finite, `BigInt` not a safe integer, NaN,
 * ±Infinity or an invalid Date anywhere (JSON would send them as `null`). `field` names the path
 * (`rows[3].maxAttendeeCapacity`, `input.expiredAt`), never the value. Raised before sending:
 * nothing was sent.
 */
export class InvalidInputError extends AdminApiError {
  override name = 'InvalidInputError';
  /** The input field at fault, as a path into the call's arguments (e.g. `'input.amount'`). */
  readonly field: string;
  /** Always true: nothing was sent. */
  readonly local = true;

  constructor(message: string, options: InvalidInputErrorOptions) {
    super(message, options);
    this.field = options.field;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { field: this.field, local: true };
  }
}
