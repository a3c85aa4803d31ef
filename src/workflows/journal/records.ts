/**
 * The journal format version this SDK writes: 2 adds the records of what the job spent (`run`,
 * `budget`, `sent`, `answered`), which an SDK that reads version 1 only would refuse as damaged,
 * so it is told by the version instead.
 */
export const JOURNAL_VERSION = 2;

/** The versions this SDK reads. A version 1 journal is resumed as it is, without spending records. */
export const READABLE_VERSIONS: ReadonlySet<number> = new Set([1, 2]);

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

/**
 * A run of the job begins (each run writes one before its first request): who sends the requests
 * recorded after it.
 */
export interface JournalRunRecord {
  type: 'run';
  /** The process, as `host:pid:start` (a pid alone may be reused): its own sends are not counted twice. */
  process: string;
  /** The lease of the run's permits: a request sent and never answered (the process died) counts at most this long, and a window more. */
  leaseMs?: number;
  /** Epoch ms. */
  atMs: number;
}

/** The mutation budget in force, at the start of a run and whenever it changes (the server revealed its own). */
export interface JournalBudgetRecord {
  type: 'budget';
  limit: number;
  windowMs: number;
  /** Where it comes from, as `BudgetInForce.source`: a `'server'` budget is adopted by a resumed run. */
  source: 'configured' | 'default' | 'server';
  /** Epoch ms. */
  atMs: number;
}

/** A mutation request left (its permit granted), or was answered: `request` is `<callId>#<attempt>`. */
export interface JournalRequestRecord {
  type: 'sent' | 'answered';
  request: string;
  /** Epoch ms. */
  atMs: number;
}

/** What a run spent, as recorded: runs, budgets and requests, in the order they happened. */
export type JournalSpendingRecord = JournalRunRecord | JournalBudgetRecord | JournalRequestRecord;

/** Any record of a journal line. */
export type JournalRecord = JournalHeader | JournalEntry | JournalSpendingRecord;


const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isOptionalText = (value: unknown): boolean => value === undefined || typeof value === 'string';

function isEntryError(value: unknown): value is JournalEntryError {
  if (typeof value !== 'object' || value === null) return false;
  const error = value as Record<string, unknown>;
  return typeof error['message'] === 'string' && isOptionalText(error['code']);
}

const isTime = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/** Checks the shape of a spending record (`run`, `budget`, `sent`, `answered`). */
function isSpendingRecord(record: Record<string, unknown>): boolean {
  switch (record['type']) {
    case 'run':
      return isText(record['process']) && (record['leaseMs'] === undefined || isCount(record['leaseMs'])) && isTime(record['atMs']);
    case 'budget':
      return isCount(record['limit']) && isCount(record['windowMs']) && ['configured', 'default', 'server'].includes(record['source'] as string) && isTime(record['atMs']);
    case 'sent':
    case 'answered':
      return isText(record['request']) && isTime(record['atMs']);
    default:
      return false;
  }
}

/** Checks the shape of a parsed record; anything else is treated as a damaged line. */
export function isJournalRecord(value: unknown): value is JournalRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (isSpendingRecord(record)) return true;
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
