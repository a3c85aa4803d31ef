/**
 * Unix seconds of a UTC wall time, computed with `Date.UTC`: expected instants in the scheduling
 * tests are written this way, independently of the Temporal code under test.
 */
export function utc(year: number, month: number, day: number, hour: number, minute = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute) / 1000;
}
