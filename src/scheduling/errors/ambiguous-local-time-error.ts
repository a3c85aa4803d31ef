import { AdminApiError } from '../../errors/admin-api-error.js';

/** Where a repeated local time was met, and the two instants it could mean. */
export interface AmbiguousLocalTimeDetails {
  /** Local date, `YYYY-MM-DD`. */
  date: string;
  /** Local time as given, `HH:MM` or `HH:MM:SS`. */
  time: string;
  /** The IANA zone. */
  timeZone: string;
  /** Unix seconds of the first occurrence (before the clocks go back). */
  earlier: number;
  /** Unix seconds of the second occurrence (after the clocks go back). */
  later: number;
}

/**
 * Thrown when a local wall-clock time occurs twice (the fall-back overlap, e.g. 01:30 on 2026-11-01
 * in America/New_York) and the caller did not choose which one: pass `repeated: 'earlier'` or
 * `repeated: 'later'`. Both candidates are on the error as Unix seconds.
 */
export class AmbiguousLocalTimeError extends AdminApiError {
  override name = 'AmbiguousLocalTimeError';
  /** Local date, `YYYY-MM-DD`. */
  readonly date: string;
  /** Local time as given. */
  readonly time: string;
  /** The IANA zone. */
  readonly timeZone: string;
  /** Unix seconds of the first occurrence. */
  readonly earlier: number;
  /** Unix seconds of the second occurrence. */
  readonly later: number;

  constructor(details: AmbiguousLocalTimeDetails, options: { operation: string }) {
    super(
      `Failed to ${options.operation}: local time ${details.date} ${details.time} occurs twice in ` +
        `${details.timeZone} (the clocks go back), at Unix ${details.earlier} and ${details.later}. ` +
        `Pass repeated: 'earlier' or 'later' to choose.`,
      options,
    );
    this.date = details.date;
    this.time = details.time;
    this.timeZone = details.timeZone;
    this.earlier = details.earlier;
    this.later = details.later;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { date: this.date, time: this.time, timeZone: this.timeZone, earlier: this.earlier, later: this.later };
  }
}
