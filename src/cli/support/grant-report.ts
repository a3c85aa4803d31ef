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
  /** `created`, `already_granted`, `skipped`, `failed` or `invalid`. */
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

/** A grant report opened on its first record, so a job refused before any row (a journal of another coupon) leaves an existing report untouched. */
export interface LazyGrantReport {
  write(index: number, record: GrantReportRecord): Promise<void>;
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
    async close({ complete }) {
      if (opening === undefined && complete) opening = openGrantReport(path);
      await (await opening)?.close();
    },
  };
}
