import { AdminApiError } from '../../../errors/admin-api-error.js';

/**
 * Thrown when the journal file cannot be read, repaired or appended to, or after an append wrote only
 * part of its line (`code: 'short_write'`). After a failed append the journal refuses further appends,
 * so a partial line can only ever be the last one (which the next `openJournal` repairs).
 */
export class JournalIoError extends AdminApiError {
  override name = 'JournalIoError';
  /** The journal file. */
  readonly path: string;
  /** The system error code (e.g. `'EACCES'`, `'ENOSPC'`), or `'short_write'`. */
  readonly code: string;

  constructor(details: { path: string; code: string; operation: string; cause?: unknown }) {
    super(
      `Failed to ${details.operation}: I/O error ${details.code} on ${details.path}. ` +
        `Check the path, permissions and free space, then open the journal again to resume.`,
      { operation: details.operation, cause: details.cause },
    );
    this.path = details.path;
    this.code = details.code;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { path: this.path, code: this.code };
  }
}
