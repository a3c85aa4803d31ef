import { writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { RateLimitBudget } from '../../client/options/options.js';
import type { BulkResult, MeetingHostingType, MeetingRowInput } from '../../client/types/types.js';
import { AdminApiError } from '../../errors/admin-api-error.js';
import { unixToLocal } from '../../scheduling/local-time.js';
import type { RepeatedTimeChoice } from '../../scheduling/local-instant.js';
import { parseSlotPatterns } from '../../scheduling/slot-pattern-parser.js';
import { resolveTimeZone } from '../../scheduling/time-zone.js';
import type { WeeklyPattern } from '../../scheduling/weekly-pattern.js';
import { planWeeklySlots, type NonexistentSlotChoice, type SlotRowTemplate, type WeeklySlotPlan } from '../../scheduling/weekly-slots.js';
import { API_ENVIRONMENT_HELP, clientFromEnvironment } from '../support/api-environment.js';
import { commandPacing, PACING_HELP, REDIS_HELP } from '../support/command-pacing.js';
import { CliUsageError } from '../support/cli-usage-error.js';
import { EXIT_CODES } from '../support/exit-codes.js';
import { helpText } from '../support/help-layout.js';
import { parseNonNegativeInteger } from '../support/number-option.js';
import { parseRateLimit, RATE_LIMIT_HELP } from '../support/rate-limit-option.js';
import { exitTwoOnUsageErrors, runAction } from '../support/run-action.js';
import { rowFailureText, rowHints, slotCreateError, slotPlanError, ZONE_REMEDY } from '../support/slot-errors.js';
import { textTable } from '../support/text-table.js';
import { outputColumns, writeWrapped } from '../support/text-wrap.js';
import { withWaitsShown } from '../support/wait-display.js';
import { pacingWindows } from '../support/wait-watch.js';

interface CreateSlotsOptions {
  service?: string;
  tz: string;
  from: string;
  to: string;
  weekly: WeeklyPattern[];
  capacity?: number;
  hosting?: MeetingHostingType;
  hostEmail?: string;
  hostUser?: string;
  joinUrl?: string;
  title?: string;
  price?: number;
  dstGap: NonexistentSlotChoice;
  dstRepeat: RepeatedTimeChoice;
  dryRun?: boolean;
  atomic?: boolean;
  saveIds?: string;
  rateLimit?: RateLimitBudget;
  redis?: string;
}

const HELP_AFTER = `
Slots keep their local wall time in --tz across daylight-saving changes (10:00 stays
10:00 local). A slot that falls into a spring-forward gap is refused unless
--dst-gap skip; one at a time that happens twice (autumn) is refused unless
--dst-repeat earlier|later. --tz should be the service's effectiveTimezone.

Large sets are sent in chunks (results keep their order); --atomic (all or nothing)
works only for a set that fits in one request and without videoconf hosting.

--dry-run prints the slots in local time and UTC and sends nothing (no API key needed).

Exit status: 0 every slot created, 1 a slot failed or the request was refused,
2 usage error (nothing sent).

${PACING_HELP}

${API_ENVIRONMENT_HELP}

Examples:
  $ school-admin create-slots --service 5e0c... --tz Europe/Berlin --from 2027-01-04 --to 2027-03-26 --weekly "Tue,Thu 10:00-11:00" --weekly "Mon 14:00-15:30" --capacity 4 --hosting live_session --dry-run
  $ school-admin create-slots --service 5e0c... --tz America/New_York --from 2027-03-01 --to 2027-03-31 --weekly "Mon-Fri 09:00-09:30" --hosting custom --join-url https://meet.example/office-hours --save-ids march.txt`;

/** `school-admin create-slots`: opens weekly consulting slots from local times. */
export function createSlotsCommand(): Command {
  const command = new Command('create-slots')
    .description('Open weekly consulting meeting slots from local times (DST-correct)')
    .option('--service <id>', 'the consulting service to add the slots to (required unless --dry-run)')
    .requiredOption('--tz <zone>', "IANA time zone of the local times (the service's effectiveTimezone)", parseZone)
    .requiredOption('--from <date>', 'first local date, YYYY-MM-DD (inclusive)')
    .requiredOption('--to <date>', 'last local date, YYYY-MM-DD (inclusive)')
    .requiredOption('--weekly <pattern>', 'days and local times, e.g. "Tue,Thu 10:00-11:00" or "Mon-Fri 09:00-09:30" (repeatable)', collectPatterns)
    .option('--capacity <n>', 'maximum attendees per slot (0 = unlimited)', parseNonNegativeInteger)
    .addOption(new Option('--hosting <type>', 'how the meeting is held').choices(['videoconf', 'live_session', 'custom']))
    .option('--host-email <email>', 'video-platform licence email (videoconf only)')
    .option('--host-user <id>', 'user id of the host (the owner or a teaching assistant; default: the owner)')
    .option('--join-url <url>', 'join address (required with --hosting custom)')
    .option('--title <text>', 'slot title (default: the service name)')
    .option('--price <amount>', 'price per slot', parsePrice)
    .addOption(new Option('--dst-gap <choice>', 'a slot in a spring-forward gap').choices(['reject', 'skip']).default('reject'))
    .addOption(new Option('--dst-repeat <choice>', 'a slot at a time that happens twice').choices(['reject', 'earlier', 'later']).default('reject'))
    .option('--dry-run', 'print the slots (local time and UTC) without sending anything')
    .option('--atomic', 'create all slots or none')
    .option('--save-ids <file>', 'write the ids of the created meetings to FILE, one per line (cancel-meetings --ids reads it)')
    .option('--rate-limit <n/window>', RATE_LIMIT_HELP, parseRateLimit)
    .option('--redis <url>', REDIS_HELP)
    .addHelpText('after', helpText(HELP_AFTER))
    .showHelpAfterError('(run school-admin create-slots --help for usage)')
    .action(runAction((options: CreateSlotsOptions) => createSlots(options)));
  return exitTwoOnUsageErrors(command);
}

async function createSlots(options: CreateSlotsOptions): Promise<number> {
  const plan = planSlots(options);
  const out = process.stdout;
  if (options.dryRun === true) {
    writeWrapped(out, `Dry run: ${plan.rows.length} slots in ${options.tz} (nothing sent)\n\n`);
    out.write(textTable(['#', 'local', 'UTC'], plan.rows.map((row, index) => [String(index + 1), localRange(row, options.tz), utcRange(row)]), outputColumns(out)));
    writeWrapped(out, skippedText(plan));
    return EXIT_CODES.ok;
  }
  if (options.service === undefined) throw new CliUsageError('Failed to create the slots: --service is required (unless --dry-run). Give the consulting service id.');
  const service = options.service;
  const pacing = await commandPacing('create-slots', options.redis);
  const result = await (async () => {
    const admin = clientFromEnvironment('create-slots', { pacing: pacing.limits, ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }) });
    return withWaitsShown(admin, process.stderr, pacingWindows(options.rateLimit), () => admin.bulkCreateMeetings(service, plan.rows, { atomic: options.atomic === true }));
  })()
    .catch((error: unknown) => {
      throw slotCreateError(error, options);
    })
    .finally(() => pacing.close());
  out.write(resultTable(plan, result, options.tz, outputColumns(out)));
  const hints = rowHints(result.results.map((row) => row.errors[0]));
  if (hints.length > 0) writeWrapped(out, `\n${hints.join('\n')}\n`);
  writeWrapped(out, skippedText(plan));
  const failed = result.results.filter((row) => row.meeting === null).length;
  writeWrapped(out, `\n${plan.rows.length - failed} created, ${failed} failed${result.errors.length > 0 ? `; request errors: ${result.errors.join('; ')}` : ''}\n`);
  if (options.saveIds !== undefined) {
    const ids = result.results.flatMap((row) => (row.meeting === null ? [] : [row.meeting.id]));
    await writeFile(options.saveIds, ids.map((id) => `${id}\n`).join(''));
    writeWrapped(out, `Meeting ids saved to ${options.saveIds} (cancel-meetings --ids ${options.saveIds} cancels them)\n`);
  }
  return failed === 0 && result.errors.length === 0 ? EXIT_CODES.ok : EXIT_CODES.failed;
}

function planSlots(options: CreateSlotsOptions): WeeklySlotPlan {
  const row: SlotRowTemplate = {
    ...(options.capacity === undefined ? {} : { maxAttendeeCapacity: options.capacity }),
    ...(options.hosting === undefined ? {} : { hostingType: options.hosting }),
    ...(options.hostEmail === undefined ? {} : { hostEmail: options.hostEmail }),
    ...(options.hostUser === undefined ? {} : { hostUserId: options.hostUser }),
    ...(options.joinUrl === undefined ? {} : { joinUrl: options.joinUrl }),
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(options.price === undefined ? {} : { price: options.price }),
  };
  let plan: WeeklySlotPlan;
  try {
    plan = planWeeklySlots({ timeZone: options.tz, from: options.from, to: options.to, patterns: options.weekly, repeated: options.dstRepeat, nonexistent: options.dstGap, row });
  } catch (error) {
    // Bad dates, ranges or DST conflicts are the command line's: exit 2, nothing sent.
    const worded = slotPlanError(error, options);
    if (worded !== undefined) throw worded;
    if (error instanceof AdminApiError) throw new CliUsageError(error.message);
    throw error;
  }
  if (plan.rows.length === 0) {
    throw new CliUsageError(`Failed to plan the slots: no slot falls between ${options.from} and ${options.to} on the given days. Check --from, --to and --weekly.`);
  }
  return plan;
}

function localRange(row: MeetingRowInput, zone: string): string {
  const start = unixToLocal(Number(row.startedAt), zone);
  const end = unixToLocal(Number(row.endedAt), zone);
  const weekday = start.weekday.charAt(0).toUpperCase() + start.weekday.slice(1);
  return `${weekday} ${start.date} ${start.time.slice(0, 5)}-${end.time.slice(0, 5)} (${start.offset})`;
}

function utcRange(row: MeetingRowInput): string {
  const iso = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
  return `${iso(Number(row.startedAt))} - ${iso(Number(row.endedAt)).slice(11)} UTC`;
}

function resultTable(plan: WeeklySlotPlan, result: BulkResult, zone: string, columns: number): string {
  const rows = plan.rows.map((row, index) => {
    const outcome = result.results[index];
    const status = outcome?.meeting != null ? `created ${outcome.meeting.id}` : rowFailureText(outcome?.errors[0]);
    return [String(index + 1), localRange(row, zone), status];
  });
  return textTable(['#', 'local', 'result'], rows, columns);
}

function skippedText(plan: WeeklySlotPlan): string {
  if (plan.skipped.length === 0) return '';
  return `\nSkipped (local time does not exist, spring-forward gap):\n${plan.skipped.map((slot) => `  ${slot.date} ${slot.start}-${slot.end}`).join('\n')}\n`;
}

function collectPatterns(value: string, previous: WeeklyPattern[] | undefined): WeeklyPattern[] {
  try {
    return [...(previous ?? []), ...parseSlotPatterns(value)];
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}

function parseZone(value: string): string {
  try {
    return resolveTimeZone(value, 'create-slots');
  } catch {
    throw new InvalidArgumentError(`It is not a time zone. ${ZONE_REMEDY}`);
  }
}

function parsePrice(value: string): number {
  const price = Number(value);
  if (!Number.isFinite(price) || price < 0) throw new InvalidArgumentError('expected an amount of 0 or more');
  return price;
}
