import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from '../../src/index.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
/** Whole-second instants within ten years either side of NOW. */
const instantSeconds = fc.integer({ min: NOW / 1000 - 315_360_000, max: NOW / 1000 + 315_360_000 });
// size 'max': lengths spread over the whole range (the default bias would rarely pass 300 digits).
const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 400, size: 'max' });

describe('property: Retry-After parsing (spec, Limits rule 6: "seconds to wait")', () => {
  it('never throws, for any string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), digits), (value) => {
        parseRetryAfter(value, NOW);
      }),
      { numRuns: 2_000 },
    );
  });

  it('whole seconds n (with surrounding spaces) give exactly n * 1000 ms, in ms not seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.constantFrom('', ' ', '\t'), (seconds, pad) => {
        expect(parseRetryAfter(`${pad}${seconds}${pad}`, NOW)).toBe(seconds * 1000);
      }),
      { numRuns: 1_000 },
    );
  });

  it('an HTTP-date (IMF-fixdate) gives the ms until that instant, 0 once it has passed', () => {
    fc.assert(
      fc.property(instantSeconds, (seconds) => {
        const header = new Date(seconds * 1000).toUTCString();
        expect(parseRetryAfter(header, NOW)).toBe(Math.max(0, seconds * 1000 - NOW));
      }),
      { numRuns: 1_000 },
    );
  });

  // RFC 9110 section 5.6.7: "A recipient that parses a timestamp value in an HTTP header field MUST
  // accept all three HTTP-date formats." All three are UTC, whatever the process's time zone.
  describe('the obsolete HTTP-date forms (RFC 850 and asctime) give the same wait as IMF-fixdate, in any local time zone', () => {
    const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
    const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    const two = (n: number): string => String(n).padStart(2, '0');
    const time = (date: Date): string => `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`;
    /** Sunday, 06-Nov-94 08:49:37 GMT */
    const rfc850 = (date: Date): string =>
      `${DAYS[date.getUTCDay()]}, ${two(date.getUTCDate())}-${MONTHS[date.getUTCMonth()]}-${two(date.getUTCFullYear() % 100)} ${time(date)} GMT`;
    /** Sun Nov  6 08:49:37 1994 */
    const asctime = (date: Date): string =>
      `${DAYS[date.getUTCDay()]?.slice(0, 3)} ${MONTHS[date.getUTCMonth()]} ${String(date.getUTCDate()).padStart(2, ' ')} ${time(date)} ${date.getUTCFullYear()}`;

    /** Runs `check` with the process in a zone far from UTC (asctime carries no zone). */
    function inZone(zone: string, check: () => void): void {
      const before = process.env.TZ;
      process.env.TZ = zone;
      try {
        check();
      } finally {
        if (before === undefined) delete process.env.TZ;
        else process.env.TZ = before;
      }
    }

    it("RFC 9110's own examples: Sunday, 06-Nov-94 08:49:37 GMT and Sun Nov  6 08:49:37 1994", () => {
      const now = Date.UTC(1994, 10, 6, 8, 49, 0);
      inZone('America/New_York', () => {
        expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(37_000);
        expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(37_000);
        expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', now)).toBe(37_000);
      });
    });

    it('any instant in either form gives the ms until it, 0 once past', () => {
      for (const zone of ['Asia/Tokyo', 'America/Los_Angeles']) {
        inZone(zone, () => {
          fc.assert(
            fc.property(instantSeconds, (seconds) => {
              const date = new Date(seconds * 1000);
              const expected = Math.max(0, seconds * 1000 - NOW);
              expect(parseRetryAfter(rfc850(date), NOW)).toBe(expected);
              expect(parseRetryAfter(asctime(date), NOW)).toBe(expected);
            }),
            { numRuns: 500 },
          );
        });
      }
    });

    it('an RFC 850 two-digit year: 30 is 2030, 94 is 1994', () => {
      expect(parseRetryAfter('Wednesday, 06-Nov-30 08:49:37 GMT', NOW)).toBe(Date.UTC(2030, 10, 6, 8, 49, 37) - NOW);
      expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', NOW)).toBe(0);
      expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', Date.UTC(1994, 10, 6, 8, 49, 0))).toBe(37_000);
    });
  });

  it('negative numbers, signs, exponents and hex are ignored (undefined), not guessed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom((n: number) => `-${n}`, (n: number) => `+${n}`, (n: number) => `${n}e3`, (n: number) => `0x${n.toString(16)}`), (n, format) => {
        expect(parseRetryAfter(format(n), NOW)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  // Regression: 309 or more digits overflow Number to Infinity; such a value is ignored.
  it('the result is undefined or a finite number >= 0 for any string (e.g. "9" x 400)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), digits), (value) => {
        const waitMs = parseRetryAfter(value, NOW);
        if (waitMs !== undefined) expect(Number.isFinite(waitMs) && waitMs >= 0).toBe(true);
      }),
      // No shrinking: shrinking 400 digits is slow and the counterexample speaks for itself.
      { numRuns: 2_000, endOnFailure: true },
    );
  });

  // Regression: Date.parse's legacy parser accepts "x 3000" (the year 3000) or "abc 1" (2001);
  // only the HTTP-date forms of RFC 9110 section 5.6.7 are read as dates.
  it('a word and a number ("later 2099") is not an HTTP-date and is ignored', () => {
    const word = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(word, fc.integer({ min: 1, max: 9_999 }), (letters, number) => {
        expect(parseRetryAfter(`${letters} ${number}`, NOW)).toBeUndefined();
      }),
      { numRuns: 500, endOnFailure: true },
    );
  });
});
