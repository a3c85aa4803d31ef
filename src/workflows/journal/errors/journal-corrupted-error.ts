import { AdminApiError } from '../../../errors/admin-api-error.js';

/** Why a journal line before the last one could not be trusted. */
export type JournalCorruptionReason =
  /** The line's checksum does not match its content. */
  | 'checksum_mismatch'
  /** The line is not a journal line at all (not `{"crc":...,"record":...}`, or not JSON). */
  | 'malformed_line'
  /** The first line is not a journal header. */
  | 'missing_header'
  /** The header names a format version this SDK does not know. */
  | 'unsupported_version'
  /** A well-formed line whose record is not a valid header or outcome. */
  | 'invalid_record';

/**
 * Thrown by `openJournal` when a line other than the last is damaged. Unlike a torn last line (which
 * a crash during an append leaves and which is repaired), this means data would be lost, so nothing
 * is dropped silently: inspect or move the file. `line` is 1-based (the header is line 1).
 */
export class JournalCorruptedError extends AdminApiError {
  override name = 'JournalCorruptedError';
  /** The journal file. */
  readonly path: string;
  /** 1-based number of the damaged line. */
  readonly line: number;
  /** Stable reason name. */
  readonly reason: JournalCorruptionReason;

  constructor(details: { path: string; line: number; reason: JournalCorruptionReason }) {
    super(
      `Failed to openJournal: line ${details.line} of ${details.path} is damaged (${details.reason.replaceAll('_', ' ')}). ` +
        `Restore the file from a backup or move it aside to start a new journal; it was left untouched.`,
      { operation: 'openJournal' },
    );
    this.path = details.path;
    this.line = details.line;
    this.reason = details.reason;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { path: this.path, line: this.line, reason: this.reason };
  }
}
