import { AdminApiError } from '../../errors/admin-api-error.js';

/**
 * Thrown when a time-zone name is not a zone the runtime's time-zone database knows
 * (e.g. a typo such as `'America/NewYork'`). Use the service's `effectiveTimezone` as sent by the server.
 *
 * @example
 * ```ts
 * try { localTimeToUnix({ date: '2026-03-08', time: '10:00' }, zone); }
 * catch (error) { if (error instanceof UnknownTimeZoneError) console.error(error.timeZone); }
 * ```
 */
export class UnknownTimeZoneError extends AdminApiError {
  override name = 'UnknownTimeZoneError';
  /** The zone name as given. */
  readonly timeZone: string;

  constructor(timeZone: string, options: { operation: string; cause?: unknown }) {
    super(
      `Failed to ${options.operation}: unknown time zone ${JSON.stringify(timeZone)}. ` +
        `Pass an IANA zone name such as "America/New_York" (the service's effectiveTimezone).`,
      options,
    );
    this.timeZone = timeZone;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { timeZone: this.timeZone };
  }
}
