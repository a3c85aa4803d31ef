/**
 * The three HTTP-date forms RFC 9110 section 5.6.7 says recipients MUST accept: IMF-fixdate,
 * RFC 850 and asctime. All three are UTC; asctime names no zone, so it is read with ` GMT` added
 * (Date.parse would read it in the process's local zone). RFC 850's two-digit years are read as
 * Date.parse reads them (00-49: 20xx, 50-99: 19xx), which RFC 9110's rule (more than 50 years
 * ahead means the previous century) only differs from for dates between 2050 and 2076, far
 * beyond any wait a server asks for.
 */
const HTTP_DATE_FORMS: ReadonlyArray<[form: RegExp, zone: string]> = [
  [/^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/, ''],
  [/^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-\d{2} \d{2}:\d{2}:\d{2} GMT$/, ''],
  [/^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/, ' GMT'],
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
  const form = HTTP_DATE_FORMS.find(([pattern]) => pattern.test(text));
  if (form === undefined) return undefined;
  const date = Date.parse(text + form[1]);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
