import { AdminApiError } from '../../errors/admin-api-error.js';

/** Where a nonexistent local time was met. */
export interface NonexistentLocalTimeDetails {
  /** Local date, `YYYY-MM-DD`. */
  date: string;
  /** Local time as given, `HH:MM` or `HH:MM:SS`. */
  time: string;
  /** The IANA zone. */
  timeZone: string;
}

/**
 * Thrown when a local wall-clock time does not exist in the zone because the clocks jump over it
 * (the spring-forward gap, e.g. 02:30 on 2026-03-08 in America/New_York). No instant is guessed:
 * pick another time, or with `weeklySlots` pass `nonexistent: 'skip'`.
 */
export class NonexistentLocalTimeError extends AdminApiError {
  override name = 'NonexistentLocalTimeError';
  /** Local date, `YYYY-MM-DD`. */
  readonly date: string;
  /** Local time as given. */
  readonly time: string;
  /** The IANA zone. */
  readonly timeZone: string;

  constructor(details: NonexistentLocalTimeDetails, options: { operation: string }) {
    super(
      `Failed to ${options.operation}: local time ${details.date} ${details.time} does not exist in ` +
        `${details.timeZone} (the clocks skip it at a daylight-saving change). Choose a time outside the gap.`,
      options,
    );
    this.date = details.date;
    this.time = details.time;
    this.timeZone = details.timeZone;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { date: this.date, time: this.time, timeZone: this.timeZone };
  }
}
