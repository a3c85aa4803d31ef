import type { Temporal } from 'temporal-polyfill';
import { InvalidTimeInputError } from './errors/invalid-time-input-error.js';
import { parseLocalTime } from './local-input.js';
import { parseWeekday, WEEKDAYS, type Weekday } from './weekday.js';

/** One weekly rule: on these days, a slot from `start` to `end` local time (same day). */
export interface WeeklyPattern {
  /** Days of the week the slot happens on. */
  days: readonly Weekday[];
  /** Local start, `HH:MM` or `HH:MM:SS`. */
  start: string;
  /** Local end, `HH:MM` or `HH:MM:SS`; must be after `start` (slots do not cross midnight). */
  end: string;
}

/** A {@link WeeklyPattern} checked and read into Temporal values. */
export interface CheckedPattern {
  source: WeeklyPattern;
  days: ReadonlySet<Weekday>;
  start: Temporal.PlainTime;
  end: Temporal.PlainTime;
}

/**
 * Checks one weekly pattern: known weekdays (at least one), well-formed times, end after start.
 *
 * @throws {InvalidTimeInputError} with reason `bad_weekday`, `no_days`, `bad_time` or `end_not_after_start`.
 */
export function checkWeeklyPattern(pattern: WeeklyPattern, operation: string): CheckedPattern {
  const days = new Set<Weekday>();
  for (const name of pattern.days) {
    const day = typeof name === 'string' ? parseWeekday(name) : undefined;
    if (day === undefined) {
      throw new InvalidTimeInputError(
        { field: 'days', reason: 'bad_weekday', value: String(name), remedy: `Use one of ${WEEKDAYS.join(', ')}.` },
        { operation },
      );
    }
    days.add(day);
  }
  if (days.size === 0) {
    throw new InvalidTimeInputError(
      { field: 'days', reason: 'no_days', value: '', remedy: "Name at least one weekday, e.g. days: ['tue', 'thu']." },
      { operation },
    );
  }
  const start = parseLocalTime(pattern.start, 'start', operation);
  const end = parseLocalTime(pattern.end, 'end', operation);
  if (end.since(start).sign <= 0) {
    throw new InvalidTimeInputError(
      {
        field: 'end',
        reason: 'end_not_after_start',
        value: `${pattern.start}-${pattern.end}`,
        remedy: 'Give an end time later the same day than the start time.',
      },
      { operation },
    );
  }
  return { source: pattern, days, start, end };
}
