import type { BulkRow } from '../client/types/types.js';
import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** A row of a chunked bulk call that finished, with its index in the input you passed. */
export interface IndexedBulkRow extends BulkRow {
  /** The row's index in the input (`rows[index]`, `ids[index]`). */
  readonly index: number;
}

/** Input indexes from `start` (included) to `end` (excluded); empty when they are equal. */
export interface RowRange {
  /** The first index of the range. */
  readonly start: number;
  /** The index after the last one of the range. */
  readonly end: number;
}

/**
 * What became of the chunk whose call failed:
 * - `not_executed`: surely nothing of it ran (never sent, or refused as a whole: a coded error, a
 *   429, a refused key): send its rows again;
 * - `executed`: the answer shows it ran (`cause` holds what could be read of it): do not send it again;
 * - `unknown`: it may or may not have run (a timeout, a lost connection, a 5xx): check its rows
 *   before sending them again.
 */
export type BulkChunkFate = 'not_executed' | 'executed' | 'unknown';

const RAN_OF = { executed: 'yes', not_executed: 'no', unknown: 'unknown' } as const;

/** The chunk of a chunked bulk call whose request failed. */
export interface FailedChunk extends RowRange {
  /** Whether its rows may have been created or canceled. */
  readonly fate: BulkChunkFate;
}

/** Fields of a {@link BulkChunkError}. */
export interface BulkChunkErrorOptions extends AdminApiErrorOptions {
  /** The rows of every chunk that finished, in input order. */
  completed: IndexedBulkRow[];
  /** The chunk whose request failed. */
  failedChunk: FailedChunk;
  /** The rows after the failed chunk. */
  notSent: RowRange;
}

/**
 * A bulk call with more rows than `bulkChunkSize` is sent as consecutive chunks; one of them
 * failed. The error says exactly where that leaves you: the results of the chunks that finished
 * (`completed`, in input order, each with its input `index`; a row there may still carry its own
 * row errors), the chunk whose call failed and what is known of its fate (`failedChunk`), the rows
 * never sent (`notSent`), and the failure itself (`cause`). `callId`, `status`, `headers` and
 * `requestId` are those of the failed chunk's call (as on `cause`); `ran` is the failed chunk's
 * (`'yes'`, `'no'`, `'unknown'` for `failedChunk.fate` `executed`, `not_executed`, `unknown`).
 *
 * @example Resume without creating anything twice
 * ```ts
 * try {
 *   await admin.bulkCreateMeetings(serviceId, rows);
 * } catch (error) {
 *   if (!(error instanceof BulkChunkError)) throw error;
 *   save(error.completed); // { index, meeting, errors } for each finished row
 *   const { failedChunk, notSent } = error;
 *   if (failedChunk.fate === 'unknown') {
 *     // rows[failedChunk.start .. failedChunk.end - 1] may exist: look them up before resending
 *   }
 *   const from = failedChunk.fate === 'not_executed' ? failedChunk.start : notSent.start;
 *   const rest = await admin.bulkCreateMeetings(serviceId, rows.slice(from));
 *   // rest.results[i] belongs to rows[from + i]
 * }
 * ```
 */
export class BulkChunkError extends AdminApiError {
  override name = 'BulkChunkError';
  /** The rows of every chunk that finished, in input order, with their input indexes. */
  readonly completed: readonly IndexedBulkRow[];
  /** The rows of the chunk whose call failed, and whether it may have run. */
  readonly failedChunk: FailedChunk;
  /** The rows after the failed chunk: never sent. */
  readonly notSent: Readonly<RowRange>;

  constructor(message: string, options: BulkChunkErrorOptions) {
    // `ran` is the failed chunk's (the finished chunks ran: see `completed`).
    super(message, { ...options, ran: RAN_OF[options.failedChunk.fate] });
    this.completed = options.completed;
    this.failedChunk = options.failedChunk;
    this.notSent = options.notSent;
  }

  protected override jsonFields(): Record<string, unknown> {
    // The rows themselves stay out: they hold what the caller sent (titles, emails).
    return { completedRows: this.completed.length, failedChunk: this.failedChunk, notSent: this.notSent };
  }
}
