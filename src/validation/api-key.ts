/** Printable ASCII, no space at either end: what a header carries unchanged (fetch trims, and refuses control and non-Latin-1 characters). */
const HEADER_SAFE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * True when the key can go out as the `X-Service-API-Key` header exactly as given. A key with a
 * line break (read from a file), a control or non-ASCII character would otherwise fail inside
 * fetch, where the error can carry the key's text.
 */
export function isHeaderSafeKey(apiKey: string): boolean {
  return HEADER_SAFE.test(apiKey);
}
