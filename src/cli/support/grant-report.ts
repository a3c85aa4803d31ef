import { AdminApiError } from '../../errors/admin-api-error.js';
import type { GrantOutcome } from '../../workflows/grant-to-many/types.js';
import { sdkErrorText } from './error-text.js';
import type { CsvMemberRow } from './member-csv.js';
import { OrderedCsvWriter } from './ordered-csv-writer.js';

/** One line of the grant report: one per member row of the CSV. */
export interface GrantReportRecord extends Record<string, string | number> {
  /** The member's line in the input CSV (header = line 1). */
  line: number;
  email: string;
  userId: string;
  /**
   * `created`, `already_granted`, `skipped`, `failed` or `invalid`; after an interrupt also
   * `not_finished` (in flight when the job stopped) and `not_reached` (never read).
   */
  outcome: string;
  grantId: string;
  /**
   * Failed rows: the error code (e.g. `ENROLLMENT-002`), or the error class when there is none.
   * Invalid rows: why (`invalid_email`, `both_identifiers`, `neither_identifier`, `invalid_user_id`).
   */
  errorCode: string;
  message: string;
}

/** The report's columns, in order. */
export const GRANT_REPORT_COLUMNS = ['line', 'email', 'userId', 'outcome', 'grantId', 'errorCode', 'message'] as const;

/** The report line of an outcome of a CSV row. */
export function grantReportRecord(outcome: GrantOutcome): GrantReportRecord {
  const row = outcome.row as CsvMemberRow;
  const base = { line: row.line, email: row.email ?? '', userId: row.userId ?? '', outcome: outcome.outcome };
  switch (outcome.outcome) {
    case 'created':
    case 'already_granted':
      return { ...base, grantId: outcome.grant.id, errorCode: '', message: '' };
    case 'skipped':
      return { ...base, grantId: outcome.grantId ?? '', errorCode: '', message: `done by an earlier run (${outcome.previous})` };
    case 'failed':
      return { ...base, grantId: '', errorCode: outcome.error.code ?? outcome.error.name, message: outcome.error.cause instanceof AdminApiError ? sdkErrorText(outcome.error.cause) : outcome.error.message };
    case 'invalid':
      return { ...base, grantId: '', errorCode: outcome.reason, message: outcome.error.message };
  }
}

/** Opens the CSV report of a grant job: one line per member row, in the input's order. */
export function openGrantReport(path: string): Promise<OrderedCsvWriter<GrantReportRecord>> {
  return OrderedCsvWriter.open<GrantReportRecord>(path, GRANT_REPORT_COLUMNS);
}

/** What the report says of a row an interrupted job left, by whether the job had read it. */
const LEFT_ROWS = {
  not_finished: 'in flight when interrupted, not journaled: sent again on resume (answered already_granted if it went through)',
  not_reached: 'not reached before the interrupt: sent on resume',
} as const;

/** The report line of a row an interrupted job left: read but not finished, or never read. */
export function leftRowRecord(row: CsvMemberRow, read: boolean): GrantReportRecord {
  const outcome = read ? 'not_finished' : 'not_reached';
  return { line: row.line, email: row.email ?? '', userId: row.userId ?? '', outcome, grantId: '', errorCode: '', message: LEFT_ROWS[outcome] };
}

/** A grant report opened on its first record, so a job refused before any row (a journal of another coupon) leaves an existing report untouched. */
export interface LazyGrantReport {
  write(index: number, record: GrantReportRecord): Promise<void>;
  /**
   * After an interrupt: adds a line for every row of `rows` (the whole CSV again) that has none,
   * `not_finished` among the first `rowsRead` (the job had read them) and `not_reached` after,
   * so the report lists every row with its state: the complete list of what is left.
   */
  addRowsLeft(rows: AsyncIterable<CsvMemberRow>, rowsRead: number): Promise<void>;
  /** Closes the report; `complete` creates it (header only) when no row was written. */
  close(options: { complete: boolean }): Promise<void>;
}

/** {@link openGrantReport}, deferred to the first record. */
export function lazyGrantReport(path: string): LazyGrantReport {
  let opening: Promise<OrderedCsvWriter<GrantReportRecord>> | undefined;
  return {
    async write(index, record) {
      opening ??= openGrantReport(path);
      await (await opening).write(index, record);
    },
    async addRowsLeft(rows, rowsRead) {
      let index = 0;
      for await (const row of rows) {
        opening ??= openGrantReport(path);
        const report = await opening;
        if (!report.has(index)) await report.write(index, leftRowRecord(row, index < rowsRead));
        index += 1;
      }
    },
    async close({ complete }) {
      if (opening === undefined && complete) opening = openGrantReport(path);
      await (await opening)?.close();
    },
  };
}
