import { AdminApiError } from '../../errors/admin-api-error.js';

/** Why a date, time, instant or recurrence input was refused. */
export type InvalidTimeInputReason =
  /** Not `YYYY-MM-DD`, or not a calendar date (e.g. `2026-02-30`). */
  | 'bad_date'
  /** Not `HH:MM` or `HH:MM:SS` on a 24-hour clock. */
  | 'bad_time'
  /** Not a safe integer number of Unix seconds in Temporal's range. */
  | 'bad_unix_seconds'
  /** A weekday name that is not one of `mon`..`sun`. */
  | 'bad_weekday'
  /** A recurrence without any weekday (or without any pattern). */
  | 'no_days'
  /** A date range whose `to` is before its `from`. */
  | 'range_reversed'
  /** A slot whose end is not after its start. */
  | 'end_not_after_start';

/**
 * Thrown when a scheduling input is malformed or inconsistent. `field` names the option
 * (e.g. `'date'`, `'time'`, `'from'`, `'end'`), `reason` is a stable name to branch on and
 * `value` the offending value as text (never a member's data: scheduling inputs hold none).
 */
export class InvalidTimeInputError extends AdminApiError {
  override name = 'InvalidTimeInputError';
  /** The option that was refused. */
  readonly field: string;
  /** Stable reason name. */
  readonly reason: InvalidTimeInputReason;
  /** The refused value, as text. */
  readonly value: string;

  constructor(
    details: { field: string; reason: InvalidTimeInputReason; value: string; remedy: string },
    options: { operation: string; cause?: unknown },
  ) {
    super(
      `Failed to ${options.operation}: ${details.field} ${JSON.stringify(details.value)} is invalid ` +
        `(${details.reason.replaceAll('_', ' ')}). ${details.remedy}`,
      options,
    );
    this.field = details.field;
    this.reason = details.reason;
    this.value = details.value;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { field: this.field, reason: this.reason, value: this.value };
  }
}
