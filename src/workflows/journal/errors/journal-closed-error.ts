import { AdminApiError } from '../../../errors/admin-api-error.js';

/** Thrown by `append` after `close()`, or after an earlier append failed (see `JournalIoError`). */
export class JournalClosedError extends AdminApiError {
  override name = 'JournalClosedError';
  /** The journal file. */
  readonly path: string;
  /** `'closed'` after `close()`, `'failed'` after a failed append. */
  readonly state: 'closed' | 'failed';

  constructor(path: string, state: 'closed' | 'failed') {
    super(
      `Failed to append to the journal ${path}: it is ${state === 'closed' ? 'closed' : 'unusable after a failed append'}. ` +
        `Open it again with openJournal to resume.`,
      { operation: 'journal.append' },
    );
    this.path = path;
    this.state = state;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { path: this.path, state: this.state };
  }
}
