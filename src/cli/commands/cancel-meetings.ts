import { Command } from 'commander';
import type { RateLimitBudget } from '../../client/options/options.js';
import type { BulkRow } from '../../client/types/types.js';
import { API_ENVIRONMENT_HELP, clientFromEnvironment } from '../support/api-environment.js';
import { commandPacing, PACING_HELP, REDIS_HELP } from '../support/command-pacing.js';
import { EXIT_CODES } from '../support/exit-codes.js';
import { helpText } from '../support/help-layout.js';
import { readMeetingIds } from '../support/meeting-ids.js';
import { rowErrorText } from '../support/row-error-text.js';
import { OrderedCsvWriter } from '../support/ordered-csv-writer.js';
import { parseRateLimit, RATE_LIMIT_HELP } from '../support/rate-limit-option.js';
import { exitTwoOnUsageErrors, runAction } from '../support/run-action.js';
import { textTable } from '../support/text-table.js';
import { outputColumns, writeWrapped } from '../support/text-wrap.js';
import { withWaitsShown } from '../support/wait-display.js';
import { pacingWindows } from '../support/wait-watch.js';

interface CancelMeetingsOptions {
  ids: string;
  atomic?: boolean;
  report?: string;
  rateLimit?: RateLimitBudget;
  redis?: string;
}

/** One line of the cancel report. */
interface CancelRecord extends Record<string, string | number> {
  line: number;
  id: string;
  /** `canceled`, `already_canceled` or `failed`. */
  outcome: string;
  errorCode: string;
  message: string;
}

/** Rows listed on the terminal when everything went well (all of them are in the report). */
const LISTED_ROWS = 50;

const HELP_AFTER = `
FILE lists meeting ids, one per line (blank lines and # comments ignored), or is a CSV
whose header has an "id" (or "meetingId") column. Large lists are sent in chunks.
A meeting that is already canceled (MEETING-007) is reported "already_canceled" and
counts as done, so the same file can be run again safely. --atomic cancels all or
none (one request; not with video-platform-hosted meetings).

--report writes one CSV line per id: line, id, outcome (canceled, already_canceled,
failed), errorCode, message.

Exit status: 0 every meeting canceled (or already), 1 a meeting failed, 2 usage error.

${PACING_HELP}

${API_ENVIRONMENT_HELP}

Examples:
  $ school-admin cancel-meetings --ids term-slots.txt --report canceled.csv
  $ school-admin cancel-meetings --ids export.csv --atomic`;

/** `school-admin cancel-meetings`: cancels the meetings listed in a file. */
export function cancelMeetingsCommand(): Command {
  const command = new Command('cancel-meetings')
    .description('Cancel the consulting meetings listed in a file')
    .requiredOption('--ids <file>', 'meeting ids: one per line, or a CSV with an id column')
    .option('--atomic', 'cancel all or none')
    .option('--report <file>', 'write every id\'s outcome to FILE (CSV)')
    .option('--rate-limit <n/window>', RATE_LIMIT_HELP, parseRateLimit)
    .option('--redis <url>', REDIS_HELP)
    .addHelpText('after', helpText(HELP_AFTER))
    .showHelpAfterError('(run school-admin cancel-meetings --help for usage)')
    .action(runAction((options: CancelMeetingsOptions) => cancelMeetings(options)));
  return exitTwoOnUsageErrors(command);
}

async function cancelMeetings(options: CancelMeetingsOptions): Promise<number> {
  const pacing = await commandPacing('cancel-meetings', options.redis);
  const { ids, lines, result } = await (async () => {
    const admin = clientFromEnvironment('cancel-meetings', { pacing: pacing.limits, ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }) });
    const read = await readMeetingIds(options.ids);
    return { ...read, result: await withWaitsShown(admin, process.stderr, pacingWindows(options.rateLimit), () => admin.bulkCancelMeetings(read.ids, { atomic: options.atomic === true })) };
  })().finally(() => pacing.close());
  const records = ids.map((id, index) => cancelRecord(lines[index] ?? 0, id, result.results[index]));

  if (options.report !== undefined) {
    const report = await OrderedCsvWriter.open<CancelRecord>(options.report, ['line', 'id', 'outcome', 'errorCode', 'message']);
    for (const [index, record] of records.entries()) await report.write(index, record);
    await report.close();
  }
  const failed = records.filter((record) => record.outcome === 'failed');
  const shown = records.length <= LISTED_ROWS ? records : failed.slice(0, LISTED_ROWS);
  const out = process.stdout;
  if (shown.length > 0) out.write(textTable(['line', 'meeting', 'outcome'], shown.map((r) => [String(r.line), r.id, describe(r)]), outputColumns(out)));
  const count = (outcome: string): number => records.filter((record) => record.outcome === outcome).length;
  const requestErrors = result.errors.length > 0 ? `; request errors: ${result.errors.join('; ')}` : '';
  writeWrapped(out, `\n${count('canceled')} canceled, ${count('already_canceled')} already canceled, ${failed.length} failed${requestErrors}${options.report === undefined ? '' : `\nReport: ${options.report}`}\n`);
  return failed.length === 0 && result.errors.length === 0 ? EXIT_CODES.ok : EXIT_CODES.failed;
}

function cancelRecord(line: number, id: string, row: BulkRow | undefined): CancelRecord {
  if (row?.meeting != null) return { line, id, outcome: 'canceled', errorCode: '', message: '' };
  const error = row?.errors[0];
  const message = error?.message ?? 'no result for this row';
  const alreadyCanceled = error?.code === 'MEETING-007' || /already cancel/iu.test(message);
  return { line, id, outcome: alreadyCanceled ? 'already_canceled' : 'failed', errorCode: error?.code ?? '', message };
}

function describe(record: CancelRecord): string {
  if (record.outcome !== 'failed') return record.outcome.replace('_', ' ');
  return `failed ${rowErrorText(record.errorCode, record.message)}`;
}
