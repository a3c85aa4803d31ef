import { Temporal } from 'temporal-polyfill';
import { InvalidTimeInputError } from './errors/invalid-time-input-error.js';
import { formatLocalTime, parseLocalDate, parseLocalTime } from './local-input.js';
import { classifyLocalTime, pickInstant, type RepeatedTimeChoice } from './local-instant.js';
import { resolveTimeZone } from './time-zone.js';
import { weekdayOfIsoNumber, type Weekday } from './weekday.js';

/** A local wall-clock date and time, as people write them. */
export interface LocalDateTime {
  /** Calendar date, `YYYY-MM-DD`. */
  date: string;
  /** Wall-clock time, `HH:MM` or `HH:MM:SS` (24-hour clock). */
  time: string;
}

/** Options of {@link localTimeToUnix}. */
export interface LocalTimeToUnixOptions {
  /**
   * Which instant a local time that occurs twice (clocks going back) means. The default refuses to
   * guess and throws `AmbiguousLocalTimeError`, which names both candidates.
   * @default 'reject'
   */
  repeated?: RepeatedTimeChoice | undefined;
}

/** A Unix instant seen on the wall clocks of a zone (the inverse of {@link localTimeToUnix}). */
export interface ZonedLocalTime extends LocalDateTime {
  /** Always `HH:MM:SS`. */
  time: string;
  /** Day of the week of `date`. */
  weekday: Weekday;
  /** UTC offset in force, e.g. `'-05:00'`. */
  offset: string;
  /** Canonical zone name. */
  timeZone: string;
  /**
   * `null` when this wall time happens once that day; `'earlier'` or `'later'` when it happens twice
   * and this instant is the first or the second occurrence. Pass it back as `repeated` to round-trip.
   */
  repeated: 'earlier' | 'later' | null;
}

const OPERATION_TO_UNIX = 'localTimeToUnix';
const OPERATION_TO_LOCAL = 'unixToLocal';
// Temporal's instant range: +/- 10^8 days around the epoch.
const MAX_UNIX_SECONDS = 8_640_000_000_000;

/**
 * Converts a local wall-clock time in an IANA zone (the service's `effectiveTimezone`) to Unix
 * seconds, correctly across daylight-saving changes.
 *
 * @throws {NonexistentLocalTimeError} when the time falls in a spring-forward gap.
 * @throws {AmbiguousLocalTimeError} when it occurs twice and `repeated` is `'reject'` (the default).
 * @throws {UnknownTimeZoneError} for an unknown zone name.
 * @throws {InvalidTimeInputError} for a malformed date or time.
 * @example
 * ```ts
 * localTimeToUnix({ date: '2026-03-09', time: '10:00' }, 'America/New_York'); // 1773064800
 * localTimeToUnix({ date: '2026-11-01', time: '01:30' }, 'America/New_York', { repeated: 'later' });
 * ```
 */
export function localTimeToUnix(local: LocalDateTime, timeZone: string, options: LocalTimeToUnixOptions = {}): number {
  const zone = resolveTimeZone(timeZone, OPERATION_TO_UNIX);
  const date = parseLocalDate(local.date, 'date', OPERATION_TO_UNIX);
  const time = parseLocalTime(local.time, 'time', OPERATION_TO_UNIX);
  const meaning = classifyLocalTime(date.toPlainDateTime(time), zone);
  return pickInstant(meaning, options.repeated ?? 'reject', { date: local.date, time: local.time, timeZone: zone }, OPERATION_TO_UNIX);
}

/**
 * Shows Unix seconds as the local date and time in a zone, for display and round trips.
 *
 * @throws {UnknownTimeZoneError} for an unknown zone name.
 * @throws {InvalidTimeInputError} when `unixSeconds` is not a safe integer in Temporal's range.
 * @example
 * ```ts
 * unixToLocal(1793514600, 'America/New_York');
 * // { date: '2026-11-01', time: '01:30:00', weekday: 'sun', offset: '-05:00', repeated: 'later', ... }
 * ```
 */
export function unixToLocal(unixSeconds: number, timeZone: string): ZonedLocalTime {
  const zone = resolveTimeZone(timeZone, OPERATION_TO_LOCAL);
  if (!Number.isSafeInteger(unixSeconds) || Math.abs(unixSeconds) > MAX_UNIX_SECONDS) {
    throw new InvalidTimeInputError(
      {
        field: 'unixSeconds',
        reason: 'bad_unix_seconds',
        value: String(unixSeconds),
        remedy: 'Pass a whole number of seconds since 1970-01-01T00:00Z.',
      },
      { operation: OPERATION_TO_LOCAL },
    );
  }
  const zoned = Temporal.Instant.fromEpochMilliseconds(unixSeconds * 1000).toZonedDateTimeISO(zone);
  const meaning = classifyLocalTime(zoned.toPlainDateTime(), zone);
  return {
    date: zoned.toPlainDate().toString(),
    time: formatLocalTime(zoned.toPlainTime()),
    weekday: weekdayOfIsoNumber(zoned.dayOfWeek),
    offset: zoned.offset,
    timeZone: zone,
    repeated: meaning.kind === 'repeated' ? (meaning.earlier === unixSeconds ? 'earlier' : 'later') : null,
  };
}
