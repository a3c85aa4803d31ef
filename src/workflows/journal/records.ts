/** The journal format version this SDK writes and reads. */
export const JOURNAL_VERSION = 1;

/** The first line of a journal: which job the file belongs to. */
export interface JournalHeader {
  type: 'header';
  version: number;
  couponId: string;
  jobId?: string;
  /** ISO 8601 time the journal was created. */
  createdAt: string;
}

/**
 * What happened to one member: `created` (new grant), `already_granted` (the member already held an
 * active grant), `failed` (an error worth retrying) or `invalid` (the input row itself is unusable).
 */
export type JournalOutcome = 'created' | 'already_granted' | 'failed' | 'invalid';

/** Every outcome a journal line can hold. */
export const JOURNAL_OUTCOMES: ReadonlySet<string> = new Set<JournalOutcome>(['created', 'already_granted', 'failed', 'invalid']);

/** The outcomes that count as finished: a resumed run skips these members and retries `failed` ones. */
export const FINAL_OUTCOMES: ReadonlySet<JournalOutcome> = new Set(['created', 'already_granted', 'invalid']);

/** The error of a `failed` or `invalid` outcome. */
export interface JournalEntryError {
  /** The server's or the SDK's error code, e.g. `'ENROLLMENT-002'`, when there is one. */
  code?: string;
  message: string;
}

/** One finished member, as stored. */
export interface JournalEntry {
  type: 'outcome';
  /** The member key (see `journalMemberKey`). */
  member: string;
  outcome: JournalOutcome;
  /** The grant's id, when known. */
  grantId?: string;
  error?: JournalEntryError;
  /** ISO 8601 time of the append. */
  at: string;
}

/** Any record of a journal line. */
export type JournalRecord = JournalHeader | JournalEntry;


const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isOptionalText = (value: unknown): boolean => value === undefined || typeof value === 'string';

function isEntryError(value: unknown): value is JournalEntryError {
  if (typeof value !== 'object' || value === null) return false;
  const error = value as Record<string, unknown>;
  return typeof error['message'] === 'string' && isOptionalText(error['code']);
}

/** Checks the shape of a parsed record; anything else is treated as a damaged line. */
export function isJournalRecord(value: unknown): value is JournalRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (record['type'] === 'header') {
    return typeof record['version'] === 'number' && isText(record['couponId']) && isOptionalText(record['jobId']) && isText(record['createdAt']);
  }
  return (
    record['type'] === 'outcome' &&
    isText(record['member']) &&
    typeof record['outcome'] === 'string' &&
    JOURNAL_OUTCOMES.has(record['outcome']) &&
    isOptionalText(record['grantId']) &&
    (record['error'] === undefined || isEntryError(record['error'])) &&
    isText(record['at'])
  );
}
