import { Temporal } from 'temporal-polyfill';
import { AmbiguousLocalTimeError } from './errors/ambiguous-local-time-error.js';
import { NonexistentLocalTimeError } from './errors/nonexistent-local-time-error.js';

/** What a local wall-clock time means in a zone: one instant, two (clocks went back) or none (clocks jumped). */
export type LocalTimeMeaning =
  | { kind: 'unique'; unix: number }
  | { kind: 'repeated'; earlier: number; later: number }
  | { kind: 'nonexistent' };

/** Which instant to take when a local time occurs twice; `'reject'` throws {@link AmbiguousLocalTimeError}. */
export type RepeatedTimeChoice = 'earlier' | 'later' | 'reject';

/** The labels an error about a local time shows. */
export interface LocalTimeLabels {
  date: string;
  time: string;
  timeZone: string;
}

const unixOf = (zoned: Temporal.ZonedDateTime): number => zoned.epochMilliseconds / 1000;

/**
 * Classifies a local date-time in a (resolved) zone. Temporal's `'earlier'` and `'later'`
 * disambiguations give the same wall time at two instants in an overlap, and a different wall time
 * (shifted out of the gap) for a time that does not exist; that difference is the whole test.
 */
export function classifyLocalTime(local: Temporal.PlainDateTime, timeZone: string): LocalTimeMeaning {
  const earlier = local.toZonedDateTime(timeZone, { disambiguation: 'earlier' });
  if (!earlier.toPlainDateTime().equals(local)) return { kind: 'nonexistent' };
  const later = local.toZonedDateTime(timeZone, { disambiguation: 'later' });
  if (earlier.epochMilliseconds === later.epochMilliseconds) return { kind: 'unique', unix: unixOf(earlier) };
  return { kind: 'repeated', earlier: unixOf(earlier), later: unixOf(later) };
}

/**
 * Turns a classified local time into Unix seconds, applying the caller's choice for a repeated time.
 *
 * @throws {NonexistentLocalTimeError} for a time in a gap.
 * @throws {AmbiguousLocalTimeError} for a repeated time with `repeated: 'reject'`.
 */
export function pickInstant(
  meaning: LocalTimeMeaning,
  repeated: RepeatedTimeChoice,
  labels: LocalTimeLabels,
  operation: string,
): number {
  switch (meaning.kind) {
    case 'unique':
      return meaning.unix;
    case 'nonexistent':
      throw new NonexistentLocalTimeError(labels, { operation });
    case 'repeated':
      if (repeated === 'earlier') return meaning.earlier;
      if (repeated === 'later') return meaning.later;
      throw new AmbiguousLocalTimeError({ ...labels, earlier: meaning.earlier, later: meaning.later }, { operation });
  }
}
