import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';
import { onAbort, stopOnAbort } from '../client/pipeline/abort-listeners.js';
import { mayHaveReachedServer } from './network-failure.js';
import { BodyTooLargeSignal, readBodyText } from './read-body.js';
import { TransportFailureSignal, type TransportFailure } from './transport-failure.js';

/** How the transport reaches the server. */
export interface TransportOptions {
  /** `${baseUrl}/admin/graphql` */
  endpoint: string;
  /** Sent with every request (the key header, the user agent); an attempt's headers never replace them. */
  headers: Record<string, string>;
  /** `undefined`: `globalThis.fetch`, looked up at each request. */
  fetch: typeof globalThis.fetch | undefined;
  maxResponseBytes: number;
}

/** What the server is asked to run: the GraphQL-over-HTTP request parameters. */
export interface GraphQLRequestParams {
  /** The document's text, sent as `query`. */
  document: string;
  /** Left out of the body when undefined. */
  variables: object | undefined;
  /** Which of the document's operations to run; left out of the body when undefined. */
  operationName: string | undefined;
}

/** What one attempt brings of its own. */
export interface AttemptOptions {
  /** The caller's signal: aborting it aborts the attempt. */
  signal?: AbortSignal | undefined;
  /** Connection, request and the whole body. */
  timeoutMs: number;
  /** Extra headers, already checked (never the key header, nothing that breaks the request). */
  headers: Readonly<Record<string, string>>;
}

/** The JSON body of a GraphQL response, as far as it could be read. */
export interface GraphQLBody {
  data?: unknown;
  errors?: unknown;
  extensions?: unknown;
}

/** An HTTP response of one attempt. `body` is undefined when a non-2xx body was not JSON. */
export interface HttpOutcome {
  status: number;
  headers: Headers;
  body: GraphQLBody | undefined;
}

/** What the request asks for: the GraphQL JSON answer (`application/graphql-response+json` first, as the GraphQL-over-HTTP spec prefers). */
const ACCEPT = 'application/graphql-response+json, application/json';

type Fail = (failure: TransportFailure | ((reached: boolean) => TransportFailure), error: unknown) => never;

/**
 * Sends one GraphQL POST with `fetch` and returns the HTTP outcome, whatever its status. Failures
 * without a usable response throw a {@link TransportFailureSignal}; an abort by the caller rethrows
 * the signal's reason.
 *
 * The request is what a GraphQL-over-HTTP client sends: `POST` with the JSON body
 * `{ query, variables, operationName }` (the last two when given), `Content-Type: application/json` and `Accept` asking for JSON. No GraphQL
 * client library is involved: the body is read, capped and parsed here once, and the document is
 * sent as text, never parsed or printed on the way.
 */
export class GraphQLTransport {
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  async send(request: GraphQLRequestParams, attempt: AttemptOptions): Promise<HttpOutcome> {
    const { signal } = attempt;
    signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, attempt.timeoutMs);
    const forwardAbort = (): void => controller.abort(signal?.reason);
    if (signal !== undefined) onAbort(signal, forwardAbort);
    const fail: Fail = (failure, error) => {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) throw new TransportFailureSignal({ kind: 'timeout' });
      throw new TransportFailureSignal(typeof failure === 'function' ? failure(mayHaveReachedServer(error)) : failure);
    };
    const headers = new Headers(attempt.headers);
    // The client's own headers last: nothing an attempt adds may replace them.
    for (const [name, value] of Object.entries(this.#options.headers)) headers.set(name, value);
    headers.set('accept', ACCEPT);
    headers.set('content-type', 'application/json');
    const init: RequestInit = {
      method: 'POST',
      headers,
      // `variables` and `operationName` drop out of the JSON when undefined, as the spec allows.
      body: JSON.stringify({ query: request.document, variables: request.variables, operationName: request.operationName }),
      signal: controller.signal,
      // Never followed: a redirect would carry the key to another origin (or to plain http) and
      // re-send the POST outside the limiter's count. The response itself becomes a RedirectError.
      redirect: 'manual',
    };
    try {
      return await this.#exchange(init, fail);
    } finally {
      clearTimeout(timer);
      if (signal !== undefined) stopOnAbort(signal, forwardAbort);
    }
  }

  /** Fetches once, refuses redirects, reads the body under its cap and parses it once. */
  async #exchange(init: RequestInit, fail: Fail): Promise<HttpOutcome> {
    let response: Response;
    try {
      // Called unbound (workerd refuses a fetch called as another object's method) and looked up now.
      const fetchNow = this.#options.fetch ?? globalThis.fetch;
      response = await fetchNow(new URL(this.#options.endpoint), init);
    } catch (error) {
      return fail((reached) => ({ kind: 'network', mayHaveReachedServer: reached, cause: error }), error);
    }
    if (isRedirect(response)) {
      await response.body?.cancel().catch(() => undefined);
      return fail({ kind: 'redirect', status: response.status, origin: redirectOrigin(response, this.#options.endpoint), headers: response.headers }, undefined);
    }
    let text: string;
    try {
      text = await readBodyText(response, this.#options.maxResponseBytes);
    } catch (error) {
      // Headers arrived, so the request reached the server whatever happened to the body.
      const problem = error instanceof BodyTooLargeSignal ? 'too_large' : undefined;
      return fail(
        problem === undefined
          ? { kind: 'network', mayHaveReachedServer: true, cause: error }
          : { kind: 'body', problem, status: response.status, headers: response.headers },
        error,
      );
    }
    const json = parseJsonObject(text);
    // Too deep for any real answer: every later step would have to walk it. A 2xx is unusable; any
    // other status is read as a body that is not JSON (its status still decides, e.g. a 429).
    const tooDeep = json !== undefined && nestsDeeperThan(json, MAX_JSON_DEPTH);
    const body = tooDeep ? undefined : json;
    if (response.ok && body === undefined) {
      fail({ kind: 'body', problem: tooDeep ? 'too_deep' : looksLikeJson(text) ? 'malformed_json' : 'not_json', status: response.status, headers: response.headers }, undefined);
    }
    return { status: response.status, headers: response.headers, body };
  }
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A redirect as Node's fetch returns it with `redirect: 'manual'`, or the opaque one of browser-like fetches. */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || REDIRECT_STATUSES.has(response.status);
}

/** The origin of the redirect's target, resolved against the endpoint; only for http(s) targets. */
function redirectOrigin(response: Response, endpoint: string): string | undefined {
  const location = response.headers.get('location');
  if (location === null) return undefined;
  try {
    const url = new URL(location, endpoint);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function parseJsonObject(text: string): GraphQLBody | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as GraphQLBody) : undefined;
  } catch {
    return undefined;
  }
}

function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}
