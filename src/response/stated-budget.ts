/*
 * The budget a server states on an answer, any answer (the spec's server states nothing outside a
 * 429; a self-hosted one may): the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-11:
 * `RateLimit-Policy: "name";q=<quota>;w=<window seconds>`; `RateLimit: "name";r=<left>;t=<seconds>`
 * names the policy of this request), or `X-RateLimit-Limit` with a window it states (its `w`
 * parameter, as in the draft's early `RateLimit-Limit: 60;w=10`, or `X-RateLimit-Window` in
 * seconds). Fields are read as Structured Field lists of items (RFC 9651): one that is not, a
 * quota that is not a whole number of requests or a window that is not a whole number of seconds
 * is ignored, never guessed (the draft: "Malformed RateLimit header fields MUST be ignored").
 */

// A bare item: a String (without escapes; a field with one is ignored) or any other item's text up
// to the next delimiter (Integer, Decimal, Token, Byte Sequence, Boolean): only the quota, its unit
// and the window are used, and they are checked where they are read.
const BARE = '(?:"[ !#-~]*"|[^;,"\\s]+)';
const PARAM = `;([a-z*][\\w.*-]*)(?:=(${BARE}))?`;
const ITEM = `(${BARE})((?:${PARAM})*)`;
const LIST = new RegExp(`^(?:${ITEM}(?:[ \\t]*,[ \\t]*${ITEM})*)?$`);

/**
 * The members of a Structured Field list of items (RFC 9651), as their text: `[value, { key:
 * value }]` (a parameter without a value is `?1`; strings keep their quotes). Undefined when
 * `field` is absent or not such a list (inner lists included: no field read here has them).
 */
export function parseList(field: string | null): Array<[string, Record<string, string>]> | undefined {
  if (field === null || !LIST.test(field)) return undefined;
  return [...field.matchAll(new RegExp(ITEM, 'g'))].map(([, value, params]) => [
    value as string,
    Object.fromEntries([...(params as string).matchAll(new RegExp(PARAM, 'g'))].map(([, key, text]) => [key, text ?? '?1'])),
  ]);
}

/**
 * The budget stated on an answer: `{ limit, windowMs }`; the name of the field the server stated
 * one in that cannot be used (a debug line says so); or undefined when it states none (no field,
 * or a limit without a window: the spec's 429 sends that, and its own path reads the limit).
 */
export function readStatedBudget(headers: Headers): { limit: number; windowMs: number } | string | undefined {
  const policies = headers.get('ratelimit-policy');
  if (policies !== null) {
    const listed = parseList(policies) ?? [];
    // The policy of this request: the only one, or the one the RateLimit field names.
    const named = parseList(headers.get('ratelimit'))?.[0]?.[0];
    const [, policy] = (listed.length === 1 ? listed[0] : listed.find(([name]) => name === named)) ?? [];
    return budget('RateLimit-Policy', policy && (policy['qu'] ?? '"requests"') === '"requests"' ? policy['q'] : undefined, policy?.['w']);
  }
  const limit = headers.get('x-ratelimit-limit');
  const [[quota, params] = []] = parseList(limit) ?? [];
  const window = params?.['w'] ?? headers.get('x-ratelimit-window');
  return limit === null || window === null ? undefined : budget('X-RateLimit-Limit', quota, window);
}

/** A quota of 1 to 1,000,000 requests per 1 s to a day, or the field's name: larger ones make no sense for pacing. */
function budget(field: string, quota: string | undefined, windowSeconds: string | undefined): { limit: number; windowMs: number } | string {
  const limit = whole(quota);
  const window = whole(windowSeconds);
  return limit <= 1e6 && window <= 86_400 ? { limit, windowMs: window * 1000 } : field;
}

function whole(text: string | undefined): number {
  return text !== undefined && /^0*[1-9]\d{0,14}$/.test(text) ? Number(text) : Number.NaN;
}
