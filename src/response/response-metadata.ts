import type { Redactor } from '../errors/redactor.js';

/**
 * Response headers as the client shows them: names lower-cased, credentials redacted (see
 * {@link ResponseMetadata.headers}). A header sent several times holds its values joined with `, `.
 */
export type ResponseHeaders = Readonly<Record<string, string>>;

/**
 * What the client read of an HTTP response: on a result through `withResponse()`, and on every
 * `AdminApiError` that came with a response (what one hands to support).
 */
export interface ResponseMetadata {
  /** The HTTP status. */
  readonly status: number;
  /**
   * The response's headers, names lower-cased. Credentials are replaced by `'[redacted]'`: the
   * values of `set-cookie`, `authorization`, `proxy-authorization`, `x-service-api-key` and the
   * other headers that carry credentials, and any value holding an API key. `location` and
   * `content-location` keep only the target's origin (their path, query and user info can carry
   * tokens).
   */
  readonly headers: ResponseHeaders;
  /**
   * The server's id of the request, from the first of the client's `requestIdHeaders` the response
   * carries (trimmed, at most 256 characters). The spec does not name such a header; undefined
   * when none was sent.
   */
  readonly requestId: string | undefined;
}

/** What `withResponse()` gives besides the result: the response's metadata and the call it ended. */
export interface CallResponse extends ResponseMetadata {
  /** The call's id, as on its events. */
  readonly callId: string;
  /** Which request of the call was answered (1 unless it was sent again after a 429 or a failure). */
  readonly attempt: number;
}

const REDACTED = '[redacted]';
const MAX_REQUEST_ID_LENGTH = 256;

/** Headers whose values are credentials, lower-cased: never shown, whatever they hold. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set([
  'set-cookie',
  'set-cookie2',
  'cookie',
  'authorization',
  'proxy-authorization',
  'x-service-api-key',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-csrf-token',
  'x-xsrf-token',
]);

/** Headers holding a URL whose path, query and user info can carry tokens: only the origin is shown. */
const URL_HEADERS: ReadonlySet<string> = new Set(['location', 'content-location']);

/** What reading a response's metadata needs besides the response. */
export interface MetadataReading {
  /** Strips the API key from names and values. */
  redactor: Redactor;
  /** Lower-cased names of the headers that may hold a request id, in order of preference. */
  requestIdHeaders: readonly string[];
}

/** Reads a response's status, headers (credentials redacted) and request id. */
export function readResponseMetadata(status: number, headers: Headers, reading: MetadataReading): ResponseMetadata {
  const shown: Record<string, string> = {};
  headers.forEach((value, rawName) => {
    const name = reading.redactor.secret(rawName.toLowerCase());
    const safe = reading.redactor.secret(value);
    const next = CREDENTIAL_HEADERS.has(name) || safe !== value ? REDACTED : URL_HEADERS.has(name) ? originOf(value) : value;
    // A repeated header (set-cookie comes one by one) keeps every value, as `Headers.get` joins them.
    const previous = shown[name];
    shown[name] = previous === undefined || previous === next ? next : `${previous}, ${next}`;
  });
  return Object.freeze({ status, headers: Object.freeze(shown), requestId: requestIdOf(shown, reading.requestIdHeaders) });
}

/** The origin of an absolute http(s) URL; anything else (a relative target too) is redacted. */
function originOf(value: string): string {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : REDACTED;
  } catch {
    return REDACTED;
  }
}

function requestIdOf(headers: ResponseHeaders, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = headers[name]?.trim();
    if (value !== undefined && value !== '') return value.length > MAX_REQUEST_ID_LENGTH ? value.slice(0, MAX_REQUEST_ID_LENGTH) : value;
  }
  return undefined;
}

/**
 * One answered attempt, read into metadata only when someone asks (an error is built, or the caller
 * uses `withResponse()`): most calls never need it.
 */
export class AnsweredAttempt {
  readonly #status: number;
  readonly #headers: Headers;
  readonly #reading: MetadataReading;
  readonly #callId: string;
  readonly #attempt: number;
  #metadata: ResponseMetadata | undefined;

  constructor(status: number, headers: Headers, reading: MetadataReading, call: { callId: string; attempt: number }) {
    this.#status = status;
    this.#headers = headers;
    this.#reading = reading;
    this.#callId = call.callId;
    this.#attempt = call.attempt;
  }

  /** The HTTP status. */
  get status(): number {
    return this.#status;
  }

  /** The response's metadata (read once). */
  get metadata(): ResponseMetadata {
    this.#metadata ??= readResponseMetadata(this.#status, this.#headers, this.#reading);
    return this.#metadata;
  }

  /** The metadata with the call's id and the attempt, as `withResponse()` gives it. */
  callResponse(): CallResponse {
    return Object.freeze({ ...this.metadata, callId: this.#callId, attempt: this.#attempt });
  }
}
