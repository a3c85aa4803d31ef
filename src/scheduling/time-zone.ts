import { Temporal } from 'temporal-polyfill';
import { UnknownTimeZoneError } from './errors/unknown-time-zone-error.js';

/**
 * Checks a zone name against the runtime's time-zone database and returns its canonical spelling
 * (`'america/new_york'` -> `'America/New_York'`).
 *
 * @throws {UnknownTimeZoneError} when the zone is not known.
 * @example
 * ```ts
 * resolveTimeZone('Asia/Taipei'); // 'Asia/Taipei'
 * ```
 */
export function resolveTimeZone(timeZone: string, operation = 'resolveTimeZone'): string {
  if (typeof timeZone !== 'string' || timeZone.trim() === '') {
    throw new UnknownTimeZoneError(String(timeZone), { operation });
  }
  try {
    return Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(timeZone).timeZoneId;
  } catch (cause) {
    throw new UnknownTimeZoneError(timeZone, { operation, cause });
  }
}
