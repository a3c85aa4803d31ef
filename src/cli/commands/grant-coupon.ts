import { Command } from 'commander';
import { DEFAULTS, type RateLimitBudget } from '../../client/options/options.js';
import { isPermanentGrantFailure } from '../../workflows/grant-to-many/grant-failure.js';
import type { GrantOutcome, GrantToManySummary } from '../../workflows/grant-to-many/types.js';
import { API_ENVIRONMENT_HELP, clientFromEnvironment } from '../support/api-environment.js';
import { commandPacing, PACING_HELP, REDIS_HELP, redisArgument } from '../support/command-pacing.js';
import { formatDuration } from '../support/duration-format.js';
import { EXIT_CODES } from '../support/exit-codes.js';
import { grantCommandError } from '../support/grant-errors.js';
import { grantReportRecord, lazyGrantReport } from '../support/grant-report.js';
import { helpText } from '../support/help-layout.js';
import { checkReadable, countMemberRows, readMemberCsv } from '../support/member-csv.js';
import { parsePositiveInteger } from '../support/number-option.js';
import { ProblemList } from '../support/problem-list.js';
import { createProgressDisplay } from '../support/progress-display.js';
import { formatRateLimit, parseRateLimit, RATE_LIMIT_HELP } from '../support/rate-limit-option.js';
import { exitTwoOnUsageErrors, runAction } from '../support/run-action.js';
import { handleSigint } from '../support/sigint-handler.js';
import { writeWrapped } from '../support/text-wrap.js';
import { pacingWindows, watchClientWaits, WaitWatch } from '../support/wait-watch.js';

interface GrantCouponOptions {
  coupon: string;
  csv: string;
  journal?: string;
  report?: string;
  concurrency?: number;
  rateLimit?: RateLimitBudget;
  redis?: string;
  retryFailed?: boolean;
}

/** Problem rows listed on the terminal (all of them are in the report). */
const LISTED_PROBLEMS = 10;

const HELP_AFTER = `
The CSV needs a header row with an "email" and/or a "userId" column (other columns are
ignored), then one member per line. Rows with both, neither, or a malformed value are
reported as invalid and not sent. Grants are paced under the rate limit; the same member
granted twice is answered "already_granted".

With --journal, every finished member is recorded in FILE; run the same command again
after a crash or Ctrl-C and members already done are skipped. Failed members are sent
again when the failure may be temporary (no response, timeout, rate limit, GENERAL-001);
permanent ones (e.g. ENROLLMENT-002, not a member) are reported again without a request
unless --retry-failed. The first Ctrl-C stops cleanly (grants in flight finish and are
journaled); a second one quits at once. Waits over 2 s show their reason and time left.

--report writes one CSV line per member row: line, email, userId, outcome (created,
already_granted, skipped, failed, invalid), grantId, errorCode, message.

${PACING_HELP}

Exit status: 0 every row granted (or already held/skipped), 1 a row failed or was invalid,
2 usage or input error: an option, the CSV, or a journal of another coupon (nothing sent),
130 interrupted (resume with the same --journal).

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
    .option('--retry-failed', 'with --journal: also send again members whose earlier failure is permanent (e.g. ENROLLMENT-002)')
    .option('--concurrency <n>', 'grants in flight at once (default: 64, or the rate limit when lower)', parsePositiveInteger)
    .option('--rate-limit <n/window>', RATE_LIMIT_HELP, parseRateLimit)
    .option('--redis <url>', REDIS_HELP)
    .addHelpText('after', helpText(HELP_AFTER))
    .showHelpAfterError('(run school-admin grant-coupon --help for usage)')
    .action(runAction((options: GrantCouponOptions) => grantCoupon(options)));
  return exitTwoOnUsageErrors(command);
}

async function grantCoupon(options: GrantCouponOptions): Promise<number> {
  const pacing = await commandPacing('grant-coupon', options.redis);
  try {
    return await grantWithPacing(options, pacing.limits);
  } finally {
    await pacing.close();
  }
}

async function grantWithPacing(options: GrantCouponOptions, limits: Awaited<ReturnType<typeof commandPacing>>['limits']): Promise<number> {
  const admin = clientFromEnvironment('grant-coupon', { pacing: limits, ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }) });
  await checkReadable(options.csv);
  const total = await countMemberRows(options.csv);
  const report = options.report === undefined ? undefined : lazyGrantReport(options.report);
  const out = process.stdout;
  const err = process.stderr;
  writeWrapped(err, `Granting coupon ${options.coupon} to ${total} member rows of ${options.csv}${options.journal === undefined ? '' : ` (journal: ${options.journal})`}\n`);

  const waits = new WaitWatch();
  const stopWatching = watchClientWaits(admin, waits, pacingWindows(options.rateLimit));
  const display = createProgressDisplay({ stream: err, total, waits });
  const problems = new ProblemList(LISTED_PROBLEMS);
  const tally = { temporary: 0, notResent: 0 };
  const sigint = handleSigint((line) => display.log(line), {
    first: () => {
      display.stopping();
      return 'Stopping: no new grants; grants in flight finish and are journaled (up to 5 s). Press Ctrl-C again to quit at once.';
    },
    forced: 'Quit at once: grants in flight were not journaled; they are sent again on resume (and answered already_granted if they went through).',
  });
  let summary: GrantToManySummary | undefined;
  try {
    summary = await admin.grantCouponToMany(options.coupon, readMemberCsv(options.csv), {
      total,
      signal: sigint.signal,
      retryFailed: options.retryFailed === true ? 'all' : 'temporary',
      ...(options.journal === undefined ? {} : { journal: options.journal }),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      onProgress: (progress) => display.update(progress),
      onOutcome: async (outcome) => {
        if (outcome.outcome === 'failed' && !outcome.sent) tally.notResent += 1;
        else if (outcome.outcome === 'failed' && !isPermanentGrantFailure(outcome.error)) tally.temporary += 1;
        problems.add(outcome);
        await report?.write(outcome.index, grantReportRecord(outcome));
      },
    });
    // The report of an interrupted run lists the rows left too: it is the list of what remains.
    if (summary.interrupted) await report?.addRowsLeft(readMemberCsv(options.csv), summary.rows);
  } catch (error) {
    throw grantCommandError(error, options);
  } finally {
    stopWatching();
    sigint.dispose();
    display.stop();
    await report?.close({ complete: summary !== undefined });
  }

  writeWrapped(out, summaryText(summary, total, problems, tally, options));
  const hint = rateLimitHint(waits.serverBudget, options.rateLimit);
  if (hint !== undefined) writeWrapped(out, hint);
  if (summary.interrupted) {
    writeWrapped(out, resumeHint(options));
    return EXIT_CODES.interrupted;
  }
  return summary.allSucceeded ? EXIT_CODES.ok : EXIT_CODES.failed;
}

function summaryText(summary: GrantToManySummary, total: number, problems: ProblemList, tally: { temporary: number; notResent: number }, options: GrantCouponOptions): string {
  const { counts } = summary;
  const lines = [
    '',
    `${summary.interrupted ? 'Interrupted after' : 'Done in'} ${formatDuration(summary.durationMs)}: ${summary.rows} rows read`,
    `  created          ${counts.created}`,
    `  already granted  ${counts.already_granted}`,
    ...(options.journal === undefined ? [] : [`  skipped          ${counts.skipped}   (done by an earlier run, per the journal)`]),
    `  failed           ${counts.failed}${tally.notResent > 0 ? `   (${tally.notResent} not sent again: permanent failures recorded by an earlier run)` : ''}`,
    `  invalid          ${counts.invalid}   (not sent)`,
    ...(summary.unfinished > 0 ? [`  not finished     ${summary.unfinished}   (cancelled by the interrupt; sent again on resume)`] : []),
    ...(summary.interrupted ? [`  not reached      ${Math.max(0, total - summary.rows)}   (never read; sent on resume)`] : []),
    ...(summary.journalStaleLock === null
      ? []
      : [`Journal: took over the lock of process ${summary.journalStaleLock.pid} (since ${summary.journalStaleLock.startedAt}), which had stopped without releasing it.`]),
    ...(summary.journalRecovery === null ? [] : [`Journal: dropped a line torn by an earlier crash (line ${summary.journalRecovery.line}); its member is granted again.`]),
  ];
  if (problems.total > 0) {
    const more = problems.total > problems.listed ? ` (first ${problems.listed} of ${problems.total} by line${options.report === undefined ? '' : `; all in ${options.report}`})` : '';
    lines.push(`Problems${more}:`, ...problems.lines());
  }
  if (options.report !== undefined) lines.push(`Report: ${options.report}`);
  if (tally.notResent > 0) lines.push(`${tally.notResent} failed member(s) were not sent again: the journal records a failure that repeats (such as ENROLLMENT-002). Fix them and add --retry-failed to send them.`);
  if (tally.temporary > 0 && !summary.interrupted) {
    lines.push(
      `${tally.temporary} of the failures look temporary (no response, timeout, rate limit, server error): run the same command again to retry them${options.journal === undefined ? '' : ' (the journal skips the rest)'}.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * When the server revealed a budget other than the one the run started with: the --rate-limit to
 * pass next time. A window the server stated on its answers comes in whole seconds and is given as
 * it is. One read from its 429s' hints is an estimate: the hints are whole seconds rounded up, so
 * the learnt window is up to a second longer than the server's (plus the request's way there);
 * the whole-second windows they allow lie within the second below it, and the longest of them is
 * suggested (60 per 10 s is learnt as 10.3-10.9 s: 10 s), with the next one up should 429s come.
 */
export function rateLimitHint(server: RateLimitBudget | undefined, configured: RateLimitBudget | undefined): string | undefined {
  if (server === undefined) return undefined;
  const assumed = configured ?? DEFAULTS.mutations;
  if (server.limit === assumed.limit && server.windowMs === assumed.windowMs) return undefined;
  const was = `not the ${assumed.limit} per ${formatDuration(assumed.windowMs)} this run assumed at first`;
  if (server.windowMs % 1000 === 0) {
    return `The server allows ${server.limit} mutations per ${formatDuration(server.windowMs)}, ${was}. Next time, pass --rate-limit ${formatRateLimit(server)} to start at its pace.\n`;
  }
  const seconds = Math.max(1, Math.floor(server.windowMs / 1000));
  const estimate = { limit: server.limit, windowMs: seconds * 1000 };
  const longer = { limit: server.limit, windowMs: (seconds + 1) * 1000 };
  return `The server allows ${server.limit} mutations per about ${formatDuration(estimate.windowMs)} (its 429s told; their hints come in whole seconds, so the window is an estimate, between ${tenths(server.windowMs - 1000)} and ${tenths(server.windowMs)} s), ${was}. Next time, pass --rate-limit ${formatRateLimit(estimate)} to start at its pace without those 429s (--rate-limit ${formatRateLimit(longer)} if 429s still come).\n`;
}

/** Seconds to one decimal: `10.7`. */
function tenths(ms: number): string {
  return (ms / 1000).toFixed(1);
}

function resumeHint(options: GrantCouponOptions): string {
  if (options.journal === undefined) {
    return 'No --journal was given, so this run cannot be resumed exactly: running it again re-sends every row (members granted already are answered already_granted). Add --journal FILE next time.\n';
  }
  const extra = [
    ...(options.report === undefined ? [] : [`--report ${options.report}`]),
    ...(options.concurrency === undefined ? [] : [`--concurrency ${options.concurrency}`]),
    ...(options.rateLimit === undefined ? [] : [`--rate-limit ${formatRateLimit(options.rateLimit)}`]),
    ...(options.redis === undefined ? [] : [`--redis ${redisArgument(options.redis)}`]),
    ...(options.retryFailed === true ? ['--retry-failed'] : []),
  ];
  return `The journal is consistent. Resume with:\n  school-admin grant-coupon --coupon ${options.coupon} --csv ${options.csv} --journal ${options.journal}${extra.map((part) => ` ${part}`).join('')}\n`;
}
