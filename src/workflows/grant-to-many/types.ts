import type { CouponGrant, MemberRef, Priority } from '../../client/types/types.js';
import type { JournalLockHolder } from '../journal/errors/journal-locked-error.js';
import type { JournalRecovery } from '../journal/scan-journal.js';

/**
 * One input row of `grantCouponToMany`: exactly one of `email` or `userId` is expected. Rows of any
 * other shape (both, neither, a malformed email or id) are reported `invalid` and never sent, so
 * the loose type accepts what a CSV export really contains. `null` and `''` count as absent.
 */
export interface GrantMemberRow {
  /** The member's email (matched case-insensitively within the school). */
  email?: string | null | undefined;
  /** The member's user id (UUID). */
  userId?: string | null | undefined;
}

/** The members of a bulk grant: an array, any iterable, or an async iterable (streamed, never materialised). */
export type GrantMemberSource = Iterable<GrantMemberRow> | AsyncIterable<GrantMemberRow>;

/** What happened to one input row. */
export type GrantOutcomeKind = 'created' | 'already_granted' | 'failed' | 'invalid' | 'skipped';

/** Why a row was not sent. */
export type InvalidMemberReason = 'neither_identifier' | 'both_identifiers' | 'invalid_email' | 'invalid_user_id';

/** Fields every outcome has. */
interface OutcomeBase {
  /** 0-based position of the row in the input. */
  index: number;
  /** The row as given. */
  row: GrantMemberRow;
}

/** A new grant was created (`created: true`). */
export interface GrantCreatedOutcome extends OutcomeBase {
  /** Discriminant: a new grant. */
  outcome: 'created';
  /** The member as sent (trimmed). */
  member: MemberRef;
  /** The new grant. */
  grant: CouponGrant;
}

/** The member already held an active grant of the coupon; the existing grant is returned. */
export interface GrantAlreadyHeldOutcome extends OutcomeBase {
  /** Discriminant: the member already held a grant. */
  outcome: 'already_granted';
  /** The member as sent (trimmed). */
  member: MemberRef;
  /** The grant the member already held (status `granted`, `redeemed` or `expired`). */
  grant: CouponGrant;
}

/** The parsed error of a failed grant. */
export interface GrantFailure {
  /** The error code, e.g. `'ENROLLMENT-002'` (unknown member), when the error has one. */
  code?: string;
  /** The error's message ("Failed to grant the coupon: ..."); never the key or the member's email. */
  message: string;
  /** The error class, e.g. `'CodedError'`, `'NetworkError'`, `'RateLimitError'`. */
  name: string;
  /** The thrown error itself. */
  cause: unknown;
}

/**
 * The grant failed; it is journaled as `failed`. A resumed run sends it again, unless
 * `retryFailed: 'temporary'` and the failure is permanent: then it is reported failed again
 * without being sent (`sent: false`).
 */
export interface GrantFailedOutcome extends OutcomeBase {
  /** Discriminant: the grant failed. */
  outcome: 'failed';
  /** The member as sent (trimmed). */
  member: MemberRef;
  /**
   * The error. When `sent` is false it is the failure the journal holds (its `code` and `message`;
   * `name` is `'CodedError'`, `cause` the journal entry).
   */
  error: GrantFailure;
  /** False when this run did not send the grant: an earlier run's permanent failure, per the journal. */
  sent: boolean;
}

/** The row is unusable; nothing was sent (and nothing journaled: it is checked again on resume). */
export interface GrantInvalidOutcome extends OutcomeBase {
  /** Discriminant: the row was not sent. */
  outcome: 'invalid';
  /** Why the row is unusable. */
  reason: InvalidMemberReason;
  /** What is wrong with the row. */
  error: {
    /** The server's code for the same mistake, where there is one (COUPON-005, COUPON-006). */
    code?: string;
    /** Says what is wrong with the row, without the row's email. */
    message: string;
  };
}

/** The journal records the member as finished (by an earlier run, or an earlier row of this run); not sent. */
export interface GrantSkippedOutcome extends OutcomeBase {
  /** Discriminant: already finished per the journal. */
  outcome: 'skipped';
  /** The member as sent (trimmed). */
  member: MemberRef;
  /** The outcome the journal holds. */
  previous: 'created' | 'already_granted' | 'invalid';
  /** The grant's id, as journaled. */
  grantId?: string;
}

/** The outcome of one input row. */
export type GrantOutcome = GrantCreatedOutcome | GrantAlreadyHeldOutcome | GrantFailedOutcome | GrantInvalidOutcome | GrantSkippedOutcome;

/** Rows per outcome. */
export type GrantOutcomeCounts = Record<GrantOutcomeKind, number>;

/** A progress report, sent after every finished row. */
export interface GrantProgress {
  /** Rows finished (every outcome). */
  done: number;
  /** Rows in the input, when known (an array's length, or `options.total`). */
  total: number | undefined;
  /** Rows finished so far, per outcome. */
  counts: GrantOutcomeCounts;
  /** Since the job started. */
  elapsedMs: number;
  /**
   * Grant requests this run sent and got an answer or a final failure for: `created`,
   * `already_granted` and the `failed` rows that were sent (a failure the journal holds and this
   * run did not send again costs nothing, like `skipped` and `invalid` rows).
   */
  sent: number;
  /** Grants answered per second since the job started (rows that sent nothing are left out). */
  ratePerSecond: number;
  /**
   * Estimated time until every row is done, when `total` is known: the larger of what the remaining
   * rate-limit budget allows (about `remaining / limit * windowMs`, with the room left in the
   * current window used at once) and what the recent answer rate needs (when the server is slower).
   */
  etaMs: number | undefined;
  /** True when the ETA is set by the rate-limit budget (the budget is the bottleneck). */
  budgetBound: boolean;
}

/** Options of `admin.grantCouponToMany`. Every default is listed here. */
export interface GrantToManyOptions {
  /**
   * Path of an append-only journal file. Each finished member is recorded; a run started again
   * with the same journal skips members recorded `created` or `already_granted` and retries
   * `failed` ones (see `retryFailed`). A journal written for another coupon is refused (`JournalMismatchError`).
   * It also records each mutation request of the client as it leaves and when it is answered, and
   * the budget in force: a run resumed in another process (after a crash) starts with those that
   * may still count counted by its store, so it meets no 429 from them. Requests of other
   * processes or clients on the key are not in it: share the budget through Redis for those.
   * @default no journal (a run cannot be resumed; re-running re-sends every row, which is safe)
   */
  journal?: string | undefined;
  /**
   * Which members a resumed run sends again when the journal records their grant `failed`:
   * `'all'` of them, or only those whose failure may be `'temporary'` (no response, a timeout, a
   * rate limit, GENERAL-001). Permanent failures (a coded error about the member, such as
   * ENROLLMENT-002 for someone who is not a member of the school) are then reported `failed` again
   * with `sent: false`, without a request.
   * @default 'all'
   */
  retryFailed?: 'all' | 'temporary' | undefined;
  /**
   * Grants in flight at once (each holds a connection). The default reaches the rate-limit budget
   * for round trips up to about 19 s at the default 200 mutations per minute; raise it only for a
   * larger budget with slow round trips (bench/README.md, "Bulk concurrency").
   * @default 64 (or the client's mutation limit when lower), 16 when pacing is off
   */
  concurrency?: number | undefined;
  /**
   * Stops the job: no new row is taken; grants in flight get `interruptGraceMs` to finish (and be
   * journaled); then the promise resolves with `interrupted: true`. It does not reject.
   */
  signal?: AbortSignal | undefined;
  /**
   * The lane the grants wait in for their rate-limit permits: calls made meanwhile with the default
   * `'interactive'` priority go first.
   * @default 'background'
   */
  priority?: Priority | undefined;
  /**
   * How long grants in flight may still finish after `signal` aborts. Grants still waiting for a
   * rate-limit slot (or on the wire) then are cancelled: not journaled, sent again on resume
   * (where the server answers `already_granted` if the grant had been made).
   * @default 5_000
   */
  interruptGraceMs?: number | undefined;
  /**
   * The number of rows, for progress and ETA when `members` is a stream (an array's length is used
   * without it).
   * @default the array's length, else unknown
   */
  total?: number | undefined;
  /**
   * Called for every row, in completion order (`index` gives the input order), after the row is
   * journaled. A returned promise is awaited before that worker takes another row (backpressure
   * for a report writer); any other return value is ignored (so `(o) => outcomes.push(o)` fits).
   * An error it throws stops the job like a job-level error.
   */
  onOutcome?: ((outcome: GrantOutcome) => unknown) | undefined;
  /** Called after every finished row (after `onOutcome`); its return value is ignored. */
  onProgress?: ((progress: GrantProgress) => unknown) | undefined;
  /**
   * Clock for `durationMs` and progress, in milliseconds.
   * @default performance.now
   */
  now?: (() => number) | undefined;
}

/** What `grantCouponToMany` resolves to. */
export interface GrantToManySummary {
  /** Rows read from the input. */
  rows: number;
  /** Rows per outcome. */
  counts: GrantOutcomeCounts;
  /** Rows read but not finished because the job was interrupted (sent again on resume). */
  unfinished: number;
  /** How long the job took, in milliseconds. */
  durationMs: number;
  /** True when `signal` stopped the job before the input ended. */
  interrupted: boolean;
  /** True when the input ended and every row is `created`, `already_granted` or `skipped`. */
  allSucceeded: boolean;
  /** The damaged last journal line dropped when the journal was opened (a crash mid-write), or `null`. */
  journalRecovery: JournalRecovery | null;
  /** The holder of the journal's lock this run took over (its process had died on this host), or `null`. */
  journalStaleLock: JournalLockHolder | null;
}
