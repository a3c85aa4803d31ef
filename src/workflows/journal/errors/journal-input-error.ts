import { AdminApiError } from '../../../errors/admin-api-error.js';

/**
 * Thrown when `openJournal` or `append` gets an argument it cannot record: an empty `couponId` or
 * `jobId`, a member whose key would be empty, an unknown outcome, or a `failed` outcome without an
 * error. Nothing is written.
 */
export class JournalInputError extends AdminApiError {
  override name = 'JournalInputError';
  /** The argument at fault, e.g. `'couponId'`, `'member'`, `'outcome'`, `'error'`. */
  readonly field: string;

  constructor(field: string, problem: string, operation: string) {
    super(`Failed to ${operation}: ${field} ${problem}. Pass a value the journal can record.`, { operation });
    this.field = field;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { field: this.field };
  }
}
