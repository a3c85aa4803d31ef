const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

/** Day, month (0-11), year, hours, minutes, seconds. */
type DateParts = [day: string, month: string, year: number, hours: string, minutes: string, seconds: string];

/**
 * The three HTTP-date forms RFC 9110 section 5.6.7 says recipients MUST accept, each read into its
 * parts. All three are UTC (asctime names no zone: Date.parse would read it in the process's zone).
 */
const HTTP_DATE_FORMS: ReadonlyArray<{ pattern: RegExp; parts: (match: string[], nowMs: number) => DateParts }> = [
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  {
    pattern: new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`),
    parts: ([, day = '', month = '', year = '', h = '', m = '', s = '']) => [day, month, Number(year), h, m, s],
  },
  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
  {
    pattern: new RegExp(`^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`),
    parts: ([, day = '', month = '', year = '', h = '', m = '', s = ''], nowMs) => [day, month, rfc850Year(Number(year), nowMs), h, m, s],
  },
  // asctime: Sun Nov  6 08:49:37 1994
  {
    pattern: new RegExp(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`),
    parts: ([, month = '', day = '', h = '', m = '', s = '', year = '']) => [day, month, Number(year), h, m, s],
  },
];

/**
 * Parses a `Retry-After` header into milliseconds from `nowMs`. The header is in SECONDS (delta) or
 * an HTTP-date (RFC 9110 section 10.2.3) in any of its three forms; anything else is ignored
 * (undefined), never guessed.
 *
 * @example
 * ```ts
 * parseRetryAfter('12', Date.now()); //=> 12000
 * parseRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT', Date.now()); //=> ms until then (0 if past)
 * ```
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) {
    const ms = Math.round(Number(text) * 1000);
    return Number.isFinite(ms) ? ms : undefined;
  }
  // Date.parse alone is lenient ("later 2099" is a date to V8): only the HTTP-date forms are read.
  const date = httpDate(text, nowMs);
  return date === undefined ? undefined : Math.max(0, date - nowMs);
}

/** The instant of an HTTP-date in any of its three forms, or undefined. */
function httpDate(text: string, nowMs: number): number | undefined {
  for (const { pattern, parts } of HTTP_DATE_FORMS) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const [day, month, year, hours, minutes, seconds] = parts(match, nowMs);
    const instant = Date.UTC(year, MONTHS.indexOf(month), Number(day), Number(hours), Number(minutes), Number(seconds));
    // Date.UTC rolls 31 Feb over into March, and reads years below 100 as 19xx: neither is the date sent.
    const date = new Date(instant);
    return date.getUTCDate() === Number(day) && date.getUTCFullYear() === year ? instant : undefined;
  }
  return undefined;
}

/**
 * RFC 9110 section 5.6.7: a two-digit year that would put the date more than 50 years in the
 * future means the most recent past year with those last two digits.
 */
function rfc850Year(twoDigits: number, nowMs: number): number {
  const thisYear = new Date(nowMs).getUTCFullYear();
  const year = thisYear - (thisYear % 100) + twoDigits;
  return year > thisYear + 50 ? year - 100 : year;
}
