import type { Temporal } from 'temporal-polyfill';
import type { MeetingRowInput } from '../client/types/types.js';
import { InvalidTimeInputError } from './errors/invalid-time-input-error.js';
import { parseLocalDate } from './local-input.js';
import { classifyLocalTime, pickInstant, type RepeatedTimeChoice } from './local-instant.js';
import { resolveTimeZone } from './time-zone.js';
import { weekdayOfIsoNumber, type Weekday } from './weekday.js';
import { checkWeeklyPattern, type CheckedPattern, type WeeklyPattern } from './weekly-pattern.js';

/**
 * The row fields shared by every generated slot (everything of a `bulkCreateMeetings` row but the
 * times and `hostingId`, which names one external meeting and so cannot be shared).
 */
export type SlotRowTemplate = Omit<MeetingRowInput, 'startedAt' | 'endedAt' | 'hostingId'>;

/** What to do with a slot whose start or end does not exist locally (spring-forward gap). */
export type NonexistentSlotChoice = 'reject' | 'skip';

/** Options shared by both forms of {@link WeeklySlotsOptions}. */
export interface WeeklySlotsCommonOptions {
  /** The service's `effectiveTimezone` (IANA name). Slots keep their wall time in this zone. */
  timeZone: string;
  /** First local date, `YYYY-MM-DD`, inclusive. */
  from: string;
  /** Last local date, `YYYY-MM-DD`, inclusive. */
  to: string;
  /**
   * For a start or end time that occurs twice (clocks going back): which occurrence.
   * The default throws `AmbiguousLocalTimeError` for the first such slot.
   * @default 'reject'
   */
  repeated?: RepeatedTimeChoice | undefined;
  /**
   * For a slot whose start or end falls in a spring-forward gap: `'reject'` throws
   * `NonexistentLocalTimeError`; `'skip'` leaves the slot out and lists it in
   * {@link WeeklySlotPlan.skipped} (never shifted: a shifted slot would not keep its wall time).
   * @default 'reject'
   */
  nonexistent?: NonexistentSlotChoice | undefined;
  /** Fields copied into every row (capacity, hosting, price, title, ...). @default {} */
  row?: SlotRowTemplate | undefined;
}

/**
 * Options of {@link weeklySlots}: one pattern inline (`days`, `start`, `end`) or several (`patterns`,
 * e.g. from {@link parseSlotPatterns}).
 */
export type WeeklySlotsOptions = WeeklySlotsCommonOptions &
  (
    | (WeeklyPattern & {
        /** Not with `days`/`start`/`end`: give one pattern inline or several in `patterns`. */
        patterns?: undefined;
      })
    | {
        /** Several weekly patterns (e.g. from {@link parseSlotPatterns}). */
        patterns: readonly WeeklyPattern[];
        /** Not with `patterns`. */
        days?: undefined;
        /** Not with `patterns`. */
        start?: undefined;
        /** Not with `patterns`. */
        end?: undefined;
      }
  );

/** A slot left out by `nonexistent: 'skip'`. */
export interface SkippedSlot {
  /** Local date, `YYYY-MM-DD`. */
  date: string;
  /** The date's weekday. */
  weekday: Weekday;
  /** The pattern's local start, as given. */
  start: string;
  /** The pattern's local end, as given. */
  end: string;
  /** Why it was left out: its start or end falls in a spring-forward gap. */
  reason: 'nonexistent_local_time';
}

/** The result of {@link planWeeklySlots}. */
export interface WeeklySlotPlan {
  /** Rows for `bulkCreateMeetings`, in chronological order (by start, then end). */
  rows: MeetingRowInput[];
  /** Slots left out by `nonexistent: 'skip'`, in date order. */
  skipped: SkippedSlot[];
}

const OPERATION = 'weeklySlots';

function patternsOf(options: WeeklySlotsOptions): readonly WeeklyPattern[] {
  if (options.patterns === undefined) return [{ days: options.days, start: options.start, end: options.end }];
  if (options.patterns.length === 0) {
    throw new InvalidTimeInputError(
      { field: 'patterns', reason: 'no_days', value: '', remedy: 'Give at least one pattern, e.g. parseSlotPatterns("Tue,Thu 10:00-11:00").' },
      { operation: OPERATION },
    );
  }
  return options.patterns;
}

function datesBetween(from: Temporal.PlainDate, to: Temporal.PlainDate): Temporal.PlainDate[] {
  const dates: Temporal.PlainDate[] = [];
  for (let date = from; date.since(to).sign <= 0; date = date.add({ days: 1 })) dates.push(date);
  return dates;
}

/**
 * Expands weekly patterns over a date range into `bulkCreateMeetings` rows, with skipped slots
 * reported. Each slot keeps its local wall time across daylight-saving changes: 10:00 in New York
 * stays 10:00 local, so its UTC instant moves by an hour at the transition.
 *
 * @throws {InvalidTimeInputError} for malformed dates, times or weekdays, `to` before `from`, no days,
 *   or an end not after its start.
 * @throws {UnknownTimeZoneError} for an unknown zone.
 * @throws {NonexistentLocalTimeError} for a slot in a gap, unless `nonexistent: 'skip'`.
 * @throws {AmbiguousLocalTimeError} for a slot at a repeated time, unless `repeated` chooses.
 */
export function planWeeklySlots(options: WeeklySlotsOptions): WeeklySlotPlan {
  const timeZone = resolveTimeZone(options.timeZone, OPERATION);
  const from = parseLocalDate(options.from, 'from', OPERATION);
  const to = parseLocalDate(options.to, 'to', OPERATION);
  if (to.since(from).sign < 0) {
    throw new InvalidTimeInputError(
      { field: 'to', reason: 'range_reversed', value: `${options.from}..${options.to}`, remedy: 'Give a `to` date on or after `from`.' },
      { operation: OPERATION },
    );
  }
  const patterns = patternsOf(options).map((pattern) => checkWeeklyPattern(pattern, OPERATION));
  const repeated = options.repeated ?? 'reject';
  const skipNonexistent = (options.nonexistent ?? 'reject') === 'skip';

  const rows: MeetingRowInput[] = [];
  const skipped: SkippedSlot[] = [];
  for (const date of datesBetween(from, to)) {
    const weekday = weekdayOfIsoNumber(date.dayOfWeek);
    for (const pattern of patterns.filter((candidate) => candidate.days.has(weekday))) {
      const slot = resolveSlot(date, pattern, timeZone, repeated, skipNonexistent);
      if (slot === 'skipped') {
        const { start, end } = pattern.source;
        skipped.push({ date: date.toString(), weekday, start, end, reason: 'nonexistent_local_time' });
      } else {
        rows.push({ ...options.row, startedAt: slot.startedAt, endedAt: slot.endedAt });
      }
    }
  }
  rows.sort((a, b) => Number(a.startedAt) - Number(b.startedAt) || Number(a.endedAt) - Number(b.endedAt));
  return { rows, skipped };
}

function resolveSlot(
  date: Temporal.PlainDate,
  pattern: CheckedPattern,
  timeZone: string,
  repeated: RepeatedTimeChoice,
  skipNonexistent: boolean,
): { startedAt: number; endedAt: number } | 'skipped' {
  const ends = [
    { local: pattern.start, label: pattern.source.start },
    { local: pattern.end, label: pattern.source.end },
  ].map(({ local, label }) => ({ meaning: classifyLocalTime(date.toPlainDateTime(local), timeZone), label }));
  if (skipNonexistent && ends.some(({ meaning }) => meaning.kind === 'nonexistent')) return 'skipped';
  const [startedAt, endedAt] = ends.map(({ meaning, label }) =>
    pickInstant(meaning, repeated, { date: date.toString(), time: label, timeZone }, OPERATION),
  ) as [number, number];
  return { startedAt, endedAt };
}

/**
 * Expands weekly patterns over a date range into `bulkCreateMeetings` rows in chronological order;
 * {@link planWeeklySlots} does the same and also lists the slots `nonexistent: 'skip'` left out.
 *
 * @example
 * ```ts
 * const rows = weeklySlots({
 *   timeZone: service.effectiveTimezone,
 *   from: '2026-03-01', to: '2026-04-30',
 *   days: ['tue', 'thu'], start: '10:00', end: '11:00',
 *   row: { maxAttendeeCapacity: 1, hostingType: 'live_session' },
 * });
 * await admin.bulkCreateMeetings(service.id, rows);
 * ```
 */
export function weeklySlots(options: WeeklySlotsOptions): MeetingRowInput[] {
  return planWeeklySlots(options).rows;
}
