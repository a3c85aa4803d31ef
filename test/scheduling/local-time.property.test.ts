import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { NonexistentLocalTimeError, localTimeToUnix, unixToLocal } from '../../src/scheduling/index.js';

const zones = Intl.supportedValuesOf('timeZone');
const zone = fc.constantFrom(...zones);
// Years 1800..2200: historic local-mean-time offsets with seconds, and rules projected forward.
const instant = fc.integer({ min: Date.UTC(1800, 0, 1) / 1000, max: Date.UTC(2200, 11, 31) / 1000 });

describe('property: local-time conversion round-trips', () => {
  it('unix -> local -> unix gives the same instant in any zone (repeated times with the reported choice)', () => {
    fc.assert(
      fc.property(instant, zone, (seconds, timeZone) => {
        const local = unixToLocal(seconds, timeZone);
        const back = localTimeToUnix(local, timeZone, { repeated: local.repeated ?? 'reject' });
        expect(back).toBe(seconds);
      }),
      { numRuns: 400 },
    );
  });

  it('instants within two hours of a zone transition round-trip too (both sides of every gap and overlap)', () => {
    // Temporal finds the next transition, so the runs land where the offsets change, not at random.
    const nearTransition = fc
      .tuple(instant, zone, fc.integer({ min: -7200, max: 7200 }))
      .map(([seconds, timeZone, delta]) => {
        const next = Temporal.Instant.fromEpochMilliseconds(seconds * 1000).toZonedDateTimeISO(timeZone).getTimeZoneTransition('next');
        return next === null ? null : { timeZone, seconds: next.epochMilliseconds / 1000 + delta };
      })
      .filter((sample) => sample !== null);
    fc.assert(
      fc.property(nearTransition, ({ timeZone, seconds }) => {
        const local = unixToLocal(seconds, timeZone);
        expect(localTimeToUnix(local, timeZone, { repeated: local.repeated ?? 'reject' })).toBe(seconds);
      }),
      { numRuns: 400 },
    );
  });

  it('local -> unix -> local keeps the wall time, or the local time is in a gap', () => {
    const localTime = fc.record({
      date: fc.date({ min: new Date(Date.UTC(1900, 0, 1)), max: new Date(Date.UTC(2100, 11, 31)), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      time: fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`),
    });
    fc.assert(
      fc.property(localTime, zone, fc.constantFrom('earlier' as const, 'later' as const), (local, timeZone, repeated) => {
        let seconds: number;
        try {
          seconds = localTimeToUnix(local, timeZone, { repeated });
        } catch (error) {
          expect(error).toBeInstanceOf(NonexistentLocalTimeError);
          return;
        }
        const shown = unixToLocal(seconds, timeZone);
        expect({ date: shown.date, time: shown.time }).toEqual({ date: local.date, time: `${local.time}:00` });
        if (shown.repeated !== null) expect(shown.repeated).toBe(repeated);
      }),
      { numRuns: 400 },
    );
  });
});
