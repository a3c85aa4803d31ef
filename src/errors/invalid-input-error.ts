import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of an {@link InvalidInputError}. */
export interface InvalidInputErrorOptions extends AdminApiErrorOptions {
  /** The input field at fault, e.g. `'amount'`. */
  field: string;
}

/**
 * An input the server would reject without a code (a percentage amount outside (0, 100], an
 * `expiredAt` not after `startedAt`, a malformed argument). Raised before sending: nothing was sent.
 */
export class InvalidInputError extends AdminApiError {
  override name = 'InvalidInputError';
  /** The input field at fault. */
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
