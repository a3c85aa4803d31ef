import { Command } from 'commander';
import type { RateLimitBudget } from '../../client/options.js';
import type { GrantFailure, GrantOutcome, GrantToManySummary } from '../../workflows/grant-to-many/types.js';
import { API_ENVIRONMENT_HELP, clientFromEnvironment } from '../support/api-environment.js';
import { formatDuration } from '../support/duration-format.js';
import { EXIT_CODES } from '../support/exit-codes.js';
import { grantReportRecord, openGrantReport } from '../support/grant-report.js';
import { checkReadable, countMemberRows, readMemberCsv } from '../support/member-csv.js';
import { createProgressDisplay } from '../support/progress-display.js';
import { parsePositiveInteger } from '../support/number-option.js';
import { formatRateLimit, parseRateLimit, RATE_LIMIT_HELP } from '../support/rate-limit-option.js';
import { exitTwoOnUsageErrors, runAction } from '../support/run-action.js';
import { handleSigint } from '../support/sigint-handler.js';

interface GrantCouponOptions {
  coupon: string;
  csv: string;
  journal?: string;
  report?: string;
  concurrency?: number;
  rateLimit?: RateLimitBudget;
}

/** Problem rows listed on the terminal (all of them are in the report). */
const LISTED_PROBLEMS = 10;

const HELP_AFTER = `
The CSV needs a header row with an "email" and/or a "userId" column (other columns are
ignored), then one member per line. Rows with both, neither, or a malformed value are
reported as invalid and not sent. Grants are paced under the rate limit; the same member
granted twice is answered "already_granted".

With --journal, every finished member is recorded in FILE; run the same command again
after a crash or Ctrl-C and members already done are skipped (failed ones are retried).
The first Ctrl-C stops cleanly (grants in flight finish and are journaled); a second one
quits at once.

--report writes one CSV line per member row: line, email, userId, outcome (created,
already_granted, skipped, failed, invalid), grantId, errorCode, message.

Exit status: 0 every row granted (or already held/skipped), 1 a row failed or was invalid,
2 usage error (nothing sent), 130 interrupted (resume with the same --journal).

${API_ENVIRONMENT_HELP}

Examples:
  $ school-admin grant-coupon --coupon 3f2a9c1e-... --csv alumni.csv --journal alumni.journal --report alumni-report.csv
  $ school-admin grant-coupon --coupon 3f2a9c1e-... --csv alumni.csv --journal alumni.journal   # resume after Ctrl-C`;

/** `school-admin grant-coupon`: grants a restricted coupon to every member of a CSV file. */
export function grantCouponCommand(): Command {
  const command = new Command('grant-coupon')
    .description('Grant a restricted coupon to every member listed in a CSV file (resumable)')
    .requiredOption('--coupon <id>', 'id of the restricted coupon to grant')
    .requiredOption('--csv <file>', 'members: a CSV with an email and/or userId column')
    .option('--journal <file>', 'record finished members in FILE so an interrupted run can resume')
    .option('--report <file>', 'write every row\'s outcome to FILE (CSV)')
    .option('--concurrency <n>', 'grants in flight at once (default: the rate limit, a full burst)', parsePositiveInteger)
    .option('--rate-limit <n/window>', RATE_LIMIT_HELP, parseRateLimit)
    .addHelpText('after', HELP_AFTER)
    .showHelpAfterError('(run school-admin grant-coupon --help for usage)')
    .action(runAction((options: GrantCouponOptions) => grantCoupon(options)));
  return exitTwoOnUsageErrors(command);
}

async function grantCoupon(options: GrantCouponOptions): Promise<number> {
  const admin = clientFromEnvironment('grant-coupon', options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit });
  await checkReadable(options.csv);
  const total = await countMemberRows(options.csv);
  const report = options.report === undefined ? undefined : await openGrantReport(options.report);
  const out = process.stdout;
  const err = process.stderr;
  err.write(`Granting coupon ${options.coupon} to ${total} member rows of ${options.csv}${options.journal === undefined ? '' : ` (journal: ${options.journal})`}\n`);

  const display = createProgressDisplay({ stream: err, total });
  const problems: string[] = [];
  let temporaryFailures = 0;
  const sigint = handleSigint((line) => display.log(line), {
    first: () => 'Stopping: no new grants; grants in flight finish and are journaled (up to 5 s). Press Ctrl-C again to quit at once.',
    forced: 'Quit at once: grants in flight were not journaled; they are sent again on resume (and answered already_granted if they went through).',
  });
  let summary: GrantToManySummary;
  try {
    summary = await admin.grantCouponToMany(options.coupon, readMemberCsv(options.csv), {
      total,
      signal: sigint.signal,
      ...(options.journal === undefined ? {} : { journal: options.journal }),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      onProgress: (progress) => display.update(progress),
      onOutcome: async (outcome) => {
        if (outcome.outcome === 'failed' && isTemporary(outcome.error)) temporaryFailures += 1;
        if (problems.length < LISTED_PROBLEMS) {
          const problem = describeProblem(outcome);
          if (problem !== undefined) problems.push(problem);
        }
        await report?.write(outcome.index, grantReportRecord(outcome));
      },
    });
  } finally {
    sigint.dispose();
    display.stop();
    await report?.close();
  }

  out.write(summaryText(summary, problems, temporaryFailures, options));
  if (summary.interrupted) {
    out.write(resumeHint(options));
    return EXIT_CODES.interrupted;
  }
  return summary.allSucceeded ? EXIT_CODES.ok : EXIT_CODES.failed;
}

function describeProblem(outcome: GrantOutcome): string | undefined {
  const line = `line ${(outcome.row as { line?: number }).line ?? outcome.index + 2}`;
  if (outcome.outcome === 'failed') return `  ${line}: failed ${outcome.error.code ?? outcome.error.name}: ${outcome.error.message}`;
  if (outcome.outcome === 'invalid') return `  ${line}: invalid (${outcome.reason}): ${outcome.error.message}`;
  return undefined;
}

/**
 * A failure that another run may not meet: no response, a timeout, a rate limit that outlasted the
 * retries, an unexpected server error (GENERAL-001). Coded errors about the member (ENROLLMENT-002)
 * and payload refusals fail the same way every time.
 */
function isTemporary(error: GrantFailure): boolean {
  return error.code === 'GENERAL-001' || (error.code === undefined && error.name !== 'PayloadError');
}

function summaryText(summary: GrantToManySummary, problems: string[], temporaryFailures: number, options: GrantCouponOptions): string {
  const { counts } = summary;
  const problemCount = counts.failed + counts.invalid;
  const lines = [
    '',
    `${summary.interrupted ? 'Interrupted after' : 'Done in'} ${formatDuration(summary.durationMs)}: ${summary.rows} rows read`,
    `  created          ${counts.created}`,
    `  already granted  ${counts.already_granted}`,
    ...(options.journal === undefined ? [] : [`  skipped          ${counts.skipped}   (done by an earlier run, per the journal)`]),
    `  failed           ${counts.failed}`,
    `  invalid          ${counts.invalid}   (not sent)`,
    ...(summary.unfinished > 0 ? [`  not finished     ${summary.unfinished}   (cancelled by the interrupt; sent again on resume)`] : []),
    ...(summary.journalRecovery === null ? [] : [`Journal: dropped a line torn by an earlier crash (line ${summary.journalRecovery.line}); its member is granted again.`]),
  ];
  if (problemCount > 0) {
    lines.push(`Problems${problemCount > problems.length ? ` (first ${problems.length} of ${problemCount}${options.report === undefined ? '' : `; all in ${options.report}`})` : ''}:`, ...problems);
  }
  if (options.report !== undefined) lines.push(`Report: ${options.report}`);
  if (temporaryFailures > 0 && !summary.interrupted) {
    lines.push(
      `${temporaryFailures} of the failures look temporary (no response, timeout, rate limit, server error): run the same command again to retry them${options.journal === undefined ? '' : ' (the journal skips the rest)'}.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function resumeHint(options: GrantCouponOptions): string {
  if (options.journal === undefined) {
    return 'No --journal was given, so this run cannot be resumed exactly: running it again re-sends every row (members granted already are answered already_granted). Add --journal FILE next time.\n';
  }
  const extra = [
    ...(options.report === undefined ? [] : [`--report ${options.report}`]),
    ...(options.concurrency === undefined ? [] : [`--concurrency ${options.concurrency}`]),
    ...(options.rateLimit === undefined ? [] : [`--rate-limit ${formatRateLimit(options.rateLimit)}`]),
  ];
  return `The journal is consistent. Resume with:\n  school-admin grant-coupon --coupon ${options.coupon} --csv ${options.csv} --journal ${options.journal}${extra.map((part) => ` ${part}`).join('')}\n`;
}
