import type { RowError } from '../../client/types/types.js';
import { CodedError } from '../../errors/coded-error.js';
import { AmbiguousLocalTimeError } from '../../scheduling/errors/ambiguous-local-time-error.js';
import { InvalidTimeInputError } from '../../scheduling/errors/invalid-time-input-error.js';
import { NonexistentLocalTimeError } from '../../scheduling/errors/nonexistent-local-time-error.js';
import { UnknownTimeZoneError } from '../../scheduling/errors/unknown-time-zone-error.js';
import { CliFailure } from './cli-failure.js';
import { CliUsageError } from './cli-usage-error.js';
import { rowErrorText } from './row-error-text.js';

/** The planning inputs as the command line named them. */
export interface SlotCommandLine {
  service?: string | undefined;
  tz: string;
  from: string;
  to: string;
}

/** Options of planWeeklySlots, by the flag that sets them. */
const PLAN_FLAGS: Record<string, string> = { from: '--from', to: '--to', days: '--weekly', start: '--weekly', end: '--weekly', patterns: '--weekly', timeZone: '--tz' };

/**
 * Words an error of planning the slots for the command line (by class and fields): the flag at
 * fault and the flag that resolves it. Returns undefined for any other error.
 */
export function slotPlanError(error: unknown, line: SlotCommandLine): CliUsageError | undefined {
  const fail = (text: string): CliUsageError => new CliUsageError(`Failed to plan the slots: ${text}`);
  if (error instanceof NonexistentLocalTimeError) {
    return fail(
      `${error.date} ${error.time} does not exist in ${error.timeZone} (the clocks skip it at a daylight-saving change). Move that --weekly time out of the gap, or pass --dst-gap skip to leave such slots out.`,
    );
  }
  if (error instanceof AmbiguousLocalTimeError) {
    return fail(`${error.date} ${error.time} happens twice in ${error.timeZone} (the clocks go back). Pass --dst-repeat earlier or --dst-repeat later to pick one, or move that --weekly time.`);
  }
  if (error instanceof UnknownTimeZoneError) return fail(`--tz ${error.timeZone} is not a time zone. ${ZONE_REMEDY}`);
  if (error instanceof InvalidTimeInputError) {
    const flag = PLAN_FLAGS[error.field] ?? `--${error.field}`;
    if (error.reason === 'range_reversed') return fail(`--to ${line.to} is before --from ${line.from}. Give a --to date on or after --from.`);
    if (error.reason === 'bad_date') return fail(`${flag} ${error.value} is not a date. Write it as YYYY-MM-DD, e.g. 2027-01-04.`);
    return fail(`${flag} ${JSON.stringify(error.value)} is not usable (${error.reason.replaceAll('_', ' ')}). Write --weekly like "Tue,Thu 10:00-11:00".`);
  }
  return undefined;
}

/** The remedy for an unknown --tz. */
export const ZONE_REMEDY = "Give an IANA zone name such as Europe/Berlin or America/New_York (the service's effectiveTimezone).";

/** What a code means in the terms of create-slots' flags (the SDK's own wording names API fields). */
const FLAG_MEANINGS: Record<string, string> = {
  'MEETING-008': '--hosting custom needs --join-url',
  'MEETING-009': "--hosting videoconf needs the school's video-platform integration",
  'MEETING-010': '--atomic cannot be used with --hosting videoconf',
  'MEETING-011': "--host-email is not one of the school's video-platform licences",
  'MEETING-012': '--host-user is neither the school owner nor a teaching assistant',
};

/** Which flag a code's `valid_options=` hint lists values for. */
const HINT_FLAGS: Record<string, string> = { 'MEETING-011': '--host-email', 'MEETING-012': '--host-user' };

/**
 * Words an error of the bulk create for the command line: a local refusal (nothing sent, exit 2)
 * names the flags; an unknown --service (the server said so, exit 1) names --service. Returns the
 * error unchanged otherwise.
 */
export function slotCreateError(error: unknown, line: SlotCommandLine): unknown {
  if (!(error instanceof CodedError)) return error;
  const meaning = FLAG_MEANINGS[error.code];
  if (error.local && meaning !== undefined) return new CliUsageError(`Failed to create the slots: ${meaning} (${error.code}). Nothing was sent.`);
  if (error.code === 'CONSULTING-001') {
    return new CliFailure(`Failed to create the slots: --service ${line.service ?? ''} is not a consulting service of this school (CONSULTING-001). Check the id; ids of another school count as not found.`);
  }
  return error;
}

/** A failed row's cell: the code and what it means in flags, or the server's message; a hint is left for {@link rowHints}. */
export function rowFailureText(error: RowError | undefined): string {
  if (error === undefined) return 'failed: no result for this row';
  const meaning = error.code === undefined ? undefined : FLAG_MEANINGS[error.code];
  return meaning === undefined ? `failed ${rowErrorText(error.code, error.message)}` : `failed ${error.code}: ${meaning}`;
}

/**
 * The `valid_options=` hints of the failed rows, once per code (every row of a run shares its
 * flags, so the hint is the same): "Valid --host-user values (MEETING-012 hint): a, b".
 */
export function rowHints(errors: ReadonlyArray<RowError | undefined>): string[] {
  const seen = new Map<string, RowError>();
  for (const error of errors) {
    // Codes without flag wording show the server's message, hint included, in their cell already.
    if (error?.code === undefined || error.validOptions === undefined || FLAG_MEANINGS[error.code] === undefined || seen.has(error.code)) continue;
    seen.set(error.code, error);
  }
  return [...seen].map(([code, error]) => {
    const what = HINT_FLAGS[code] === undefined ? 'Valid values' : `Valid ${HINT_FLAGS[code]} values`;
    return `${what} (${code} hint${error.validOptionsTruncated ? ', truncated: the server lists at most 20' : ''}): ${(error.validOptions ?? []).join(', ')}`;
  });
}
