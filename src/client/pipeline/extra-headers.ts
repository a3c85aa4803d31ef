/**
 * Headers a caller may not set, lower-cased, with why: the key header is the client's alone, and
 * the others describe the body, the connection or the answer the client parses, so a wrong value
 * would break the request rather than decorate it.
 */
const RESERVED_HEADERS: ReadonlyMap<string, string> = new Map([
  ['x-service-api-key', 'the client sends the API key itself, from apiKey, and nothing may replace it'],
  ['user-agent', 'the client names itself there; append your app\'s name with the userAgent option'],
  ['accept', 'the client asks for the JSON it parses'],
  ['content-type', 'the client sends a JSON body and labels it'],
  ['content-length', 'the runtime computes it from the body'],
  ['content-encoding', 'the body is sent as is'],
  ['transfer-encoding', 'the runtime frames the body'],
  ['host', 'it is derived from baseUrl'],
  ['connection', 'the runtime manages connections'],
  ['keep-alive', 'the runtime manages connections'],
  ['upgrade', 'the runtime manages connections'],
  ['expect', 'the runtime manages connections'],
  ['te', 'the runtime manages connections'],
  ['trailer', 'the request has no trailers'],
]);

/** RFC 9110 `token`: what a header name may be. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Control characters (tab excepted) and anything beyond Latin-1 cannot travel in a header value. */
const BAD_VALUE_CHARACTER = /[\u0000-\u0008\u000a-\u001f\u007f\u0100-\uffff]/;

/** Extra request headers with lower-cased names, checked. */
export type ExtraHeaders = Readonly<Record<string, string>>;

/** What to say when a header is refused: `field` (e.g. `headers.Content-Type`) and the problem. */
export type HeaderRefusal = (field: string, problem: string) => never;

/**
 * Checks extra request headers (from the client's `headers` option, `withOptions` or a call) and
 * returns them with lower-cased names, merged over `base` (the later value of a name wins, whatever
 * its letter case). Refuses, naming the header but never its value: a reserved header in any letter
 * case (the key header, and those that would break the request), a name that is not an HTTP token,
 * and a value that is not a string or holds a character a header cannot carry.
 */
export function mergeExtraHeaders(base: ExtraHeaders, extra: unknown, refuse: HeaderRefusal): ExtraHeaders {
  if (extra === undefined) return base;
  if (extra === null || typeof extra !== 'object' || Array.isArray(extra)) return refuse('headers', 'headers must be an object of header names and string values');
  const merged: Record<string, string> = { ...base };
  for (const [name, value] of Object.entries(extra)) {
    // A name that is not a token is shown only in the message (which never keeps an API key), not in `field`.
    if (!isHeaderName(name)) refuse('headers', `"${printable(name)}" is not a valid header name`);
    const field = `headers.${name}`;
    const lower = name.toLowerCase();
    const reserved = RESERVED_HEADERS.get(lower);
    if (reserved !== undefined) refuse(field, `the ${name} header cannot be set: ${reserved}`);
    if (typeof value !== 'string') refuse(field, `the value of the ${name} header must be a string`);
    if (!isHeaderValue(value)) refuse(field, `the value of the ${name} header ${UNCARRIABLE}`);
    merged[lower] = value;
  }
  return Object.freeze(merged);
}

/** Why a value was refused, after "the value of ... ". */
export const UNCARRIABLE = 'has a character a header cannot carry (a line break, a control character or one beyond Latin-1)';

/**
 * True for a string a header value can carry unchanged: the one rule for every option that becomes
 * a header (`headers`, a call's `headers`, `userAgent`), so each is refused by name when the client
 * or the call is made, never by fetch (a raw TypeError) or the socket (a NetworkError) later.
 */
export function isHeaderValue(value: string): boolean {
  return !BAD_VALUE_CHARACTER.test(value);
}

/** True for a valid header name (an HTTP token). */
export function isHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}

/** A header name as far as it can be shown: a refused name may hold anything. */
function printable(name: string): string {
  const shown = name.replace(/[^\u0020-\u007e]/g, '?');
  return shown.length > 60 ? `${shown.slice(0, 60)}...` : shown;
}
