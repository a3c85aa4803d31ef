import { AdminApiError } from '../../../errors/admin-api-error.js';

/**
 * Thrown by `openJournal` when the file belongs to another job: its header names another coupon (or
 * another `jobId`). Resuming from it would skip members who never got this coupon.
 */
export class JournalMismatchError extends AdminApiError {
  override name = 'JournalMismatchError';
  /** The journal file. */
  readonly path: string;
  /** Which identity differs. */
  readonly field: 'couponId' | 'jobId';
  /** The value passed to `openJournal`. */
  readonly expected: string;
  /** The value in the file's header (`null` when the header has no `jobId`). */
  readonly found: string | null;

  constructor(details: { path: string; field: 'couponId' | 'jobId'; expected: string; found: string | null }) {
    super(
      `Failed to openJournal: ${details.path} was written for ${details.field} ${details.found ?? '(none)'}, ` +
        `not ${details.expected}. Use a separate journal file per coupon and job.`,
      { operation: 'openJournal' },
    );
    this.path = details.path;
    this.field = details.field;
    this.expected = details.expected;
    this.found = details.found;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { path: this.path, field: this.field, expected: this.expected, found: this.found };
  }
}
