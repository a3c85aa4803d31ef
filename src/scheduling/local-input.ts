import { Temporal } from 'temporal-polyfill';
import { InvalidTimeInputError } from './errors/invalid-time-input-error.js';

// Strict shapes: Temporal alone would also take `20260301`, `T10:00` or a leap second `10:00:60`.
const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
const TIME_SHAPE = /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$/;

/** Reads a local calendar date written `YYYY-MM-DD`; `field` names the option in errors. */
export function parseLocalDate(value: string, field: string, operation: string): Temporal.PlainDate {
  const refuse = (cause?: unknown): InvalidTimeInputError =>
    new InvalidTimeInputError(
      { field, reason: 'bad_date', value: String(value), remedy: 'Write dates as YYYY-MM-DD, e.g. "2026-03-08".' },
      { operation, cause },
    );
  if (typeof value !== 'string' || !DATE_SHAPE.test(value)) throw refuse();
  try {
    return Temporal.PlainDate.from(value, { overflow: 'reject' });
  } catch (cause) {
    throw refuse(cause);
  }
}

/** Reads a local wall-clock time written `HH:MM` or `HH:MM:SS` (24-hour clock); `field` names the option in errors. */
export function parseLocalTime(value: string, field: string, operation: string): Temporal.PlainTime {
  if (typeof value !== 'string' || !TIME_SHAPE.test(value)) {
    throw new InvalidTimeInputError(
      { field, reason: 'bad_time', value: String(value), remedy: 'Write times as HH:MM or HH:MM:SS on a 24-hour clock, e.g. "14:30".' },
      { operation },
    );
  }
  return Temporal.PlainTime.from(value, { overflow: 'reject' });
}

/** Formats a local time as `HH:MM:SS`. */
export function formatLocalTime(time: Temporal.PlainTime): string {
  return time.toString({ smallestUnit: 'second' });
}
