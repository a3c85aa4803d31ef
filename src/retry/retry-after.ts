/**
 * Parses a `Retry-After` header into milliseconds from `nowMs`. The header is in SECONDS (delta) or
 * an HTTP-date (RFC 9110 section 10.2.3); anything else is ignored (undefined), never guessed.
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
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  if (!/[a-z]/i.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
