import type { PermitStore } from '../../rate-limit/permit-store.js';
import type { Priority } from '../types/types.js';

/** A rate-limit budget: at most `limit` requests in any sliding window of `windowMs`. */
export interface RateLimitBudget {
  /** Most requests in any window. */
  limit: number;
  /** Length of the sliding window, in milliseconds. */
  windowMs: number;
}

/** Client-side pacing under the server's rate limits. */
export interface PacingOptions {
  /**
   * Budget for mutations.
   * @default { limit: 200, windowMs: 60_000 }
   */
  mutations?: { [K in keyof RateLimitBudget]?: RateLimitBudget[K] | undefined } | undefined;
  /**
   * Budget for queries (every document not starting with `mutation`).
   * @default { limit: 600, windowMs: 60_000 }
   */
  queries?: { [K in keyof RateLimitBudget]?: RateLimitBudget[K] | undefined } | undefined;
  /**
   * Where permits are counted. Share a `RedisPermitStore` (`school-admin-sdk/redis`) to pace
   * several processes that use one key.
   * @default a store shared by every client of this process
   */
  store?: PermitStore | undefined;
  /**
   * How long a permit may stay unanswered before it counts as answered (bounds what a crashed
   * process can hold in a shared store).
   * @default timeoutMs + 5_000
   */
  leaseMs?: number | undefined;
  /**
   * Slots kept free for interactive calls at all times while bulk work (background calls) runs, so
   * the first interactive call after a bulk job has filled the budget goes at once. On top of it,
   * background work adapts to the interactive traffic it sees (in every client and process sharing
   * the store): it keeps off the share that traffic takes (the most interactive requests counted at
   * once within the last window) and keeps as many slots free as the largest interactive burst of
   * the last 8 windows, and a bulk job hands the last quarter of its first window out evenly. The
   * cost, for bulk work, is stated exactly in docs/options.md ("Pacing modes"): the safe bound on
   * the limit less these slots, plus the first window's spread (a job of 1,000 alone at 200 per
   * minute takes 5 minutes instead of 4).
   *
   * `0` is batch mode, for a process that runs bulk work only: nothing is kept free (no reserve, no
   * spread first window, no slots after interactive calls or bursts), so a bulk job runs at the
   * safe bound. An interactive call made anyway waits for the next slot that frees: up to a window
   * (a minute at the spec's budget); it still goes before the bulk work queued in this client.
   * Figures for budgets of 20 to 1,000 per window: bench/README.md, "QoS".
   * @default 2% of the limit in force, at least 1 (4 of the spec's 200 mutations per minute); none below 10 requests per window
   */
  interactiveReserve?: number | undefined;
  /**
   * A call that has waited longer than this for its permit emits a `waiting` event (and a log
   * line); so does a retry's backoff after the server could not be reached (`'unreachable'`).
   * @default 1_000
   */
  waitingThresholdMs?: number | undefined;
}

/** Something that accepts log lines; `console` fits. Lines never contain the API key. */
export interface Logger {
  /** Receives one line per request sent and per response received. */
  debug(message: string, data?: Record<string, unknown>): void;
  /** Receives one line per retry. */
  info(message: string, data?: Record<string, unknown>): void;
  /** Receives one line per rate-limit wait (a 429). */
  warn(message: string, data?: Record<string, unknown>): void;
  /** Part of the shape so that `console` fits; the client's events log at the three levels above. */
  error(message: string, data?: Record<string, unknown>): void;
}

/** Log levels, most verbose first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/**
 * Options of `new AdminClient(options)`. Only `apiKey` and `baseUrl` are needed, and they default to
 * the `ADMIN_API_KEY` and `ADMIN_API_URL` environment variables.
 *
 * @example
 * ```ts
 * const admin = new AdminClient({
 *   apiKey: process.env.ADMIN_API_KEY!,
 *   baseUrl: 'https://school.example',
 * });
 * const fromEnvironment = new AdminClient(); // ADMIN_API_KEY and ADMIN_API_URL
 * ```
 */
export interface AdminClientOptions {
  /**
   * The school's secret key (`sk_live_...`), sent as `X-Service-API-Key`. Never logged or put in
   * errors. It must be printable ASCII without a space at either end (what a header carries
   * unchanged); anything else is refused by the constructor with `InvalidInputError`. Without it,
   * and without `ADMIN_API_KEY`, the constructor throws `InvalidInputError` naming both.
   * @default the `ADMIN_API_KEY` environment variable (trimmed), where `process.env` exists (not on edge runtimes)
   */
  apiKey?: string | undefined;
  /**
   * The school's base URL; requests go to `${baseUrl}/admin/graphql`. Without it, and without
   * `ADMIN_API_URL`, the constructor throws `InvalidInputError` naming both.
   * @default the `ADMIN_API_URL` environment variable (trimmed), where `process.env` exists (not on edge runtimes)
   */
  baseUrl?: string | undefined;
  /**
   * A custom `fetch` (for proxies, instrumentation, tests). The client asks it for
   * `redirect: 'manual'` and turns any redirect into a `RedirectError`, so the key never goes
   * anywhere but `baseUrl`'s origin. A custom fetch that follows redirects by itself, ignoring that
   * option, cannot be controlled by the client: it would send the key wherever the server points.
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Per attempt: until the whole response has arrived. It also sets the default
   * `limits.leaseMs` (this + 5 s), the ceiling of a call's own `timeoutMs`.
   * @default 30_000
   */
  timeoutMs?: number | undefined;
  /**
   * How often a call is retried, for transient failures (operations safe to repeat only) and,
   * separately, for 429 responses.
   * @default 4
   */
  maxRetries?: number | undefined;
  /**
   * Client-side pacing; `false` turns it off (429s are still honoured).
   * @default { mutations: { limit: 200, windowMs: 60_000 }, queries: { limit: 600, windowMs: 60_000 } }
   */
  limits?: PacingOptions | false | undefined;
  /**
   * First delay of the exponential backoff between retries (jittered, doubling each time).
   * @default 500
   */
  retryBaseDelayMs?: number | undefined;
  /**
   * Longest delay between two retries of a transient failure.
   * @default 10_000
   */
  maxRetryDelayMs?: number | undefined;
  /**
   * The most one call waits after 429s, all its attempts together (the sum of its waits). A wait
   * that would take the total past this ends the call at once with `RateLimitError` (it does not
   * wait part of it), so a single wait the server asks for that is longer fails at once too. No
   * wait is shorter than the fallback backoff (1 s, doubling per 429 of the call, at most one
   * window), even when the server says `Retry-After: 0` or names a reset time already past.
   *
   * With pacing on, a 429's wait pauses every client of the key sharing the store, whether or not
   * the call it answered waits for it. A call that finds the key paused for longer than it may
   * still wait fails at once with `RateLimitError` (`retryAfterMs`: what is left of the pause),
   * nothing sent, instead of sending into the server's 429s.
   * @default 120_000
   */
  maxRateLimitWaitMs?: number | undefined;
  /**
   * Responses larger than this fail with `InvalidResponseError` (`too_large`) instead of being buffered.
   * @default 16_777_216 (16 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * Rows per `bulkCreateMeetings`/`bulkCancelMeetings` request; larger inputs are sent in chunks
   * (results keep input order; `atomic` batches cannot be chunked). The spec does not state the
   * server's maximum.
   * @default 100
   */
  bulkChunkSize?: number | undefined;
  /**
   * GraphQL error codes (`extensions.code`) that mean the key was refused. The spec does not show
   * how the server reports a missing or under-scoped key; HTTP 401/403 always count.
   * @default ['UNAUTHENTICATED', 'UNAUTHORIZED', 'FORBIDDEN']
   */
  authErrorCodes?: readonly string[] | undefined;
  /**
   * Text appended to the `User-Agent` header (e.g. your app's name and version). Like `headers`, it
   * must be a value a header can carry: a line break, another control character (tab excepted) or
   * a character beyond Latin-1 is refused by the constructor with `InvalidInputError` (`field:
   * 'userAgent'`).
   * @default none
   */
  userAgent?: string | undefined;
  /**
   * Extra headers sent with every request (a call's `headers` are merged over them). The key
   * header and headers that would break the request are refused, as for a call's `headers`.
   * @default none
   */
  headers?: Record<string, string> | undefined;
  /**
   * Response headers that may carry the server's request id, in order of preference (compared
   * case-insensitively); the first one present becomes `requestId` on results (`withResponse()`)
   * and errors. The spec does not show a request-id header; the default covers common servers,
   * proxies and CDNs.
   * @default ['x-request-id', 'request-id', 'x-amzn-requestid', 'cf-ray']
   */
  requestIdHeaders?: readonly string[] | undefined;
  /**
   * The priority of calls that do not name one.
   * @default by kind of call (single calls interactive, bulk work background)
   */
  priority?: Priority | undefined;
  /**
   * Allow plain `http://` to hosts other than loopback (the key would travel unencrypted).
   * @default false
   */
  allowInsecureHttp?: boolean | undefined;
  /**
   * Allow running where a browser-like global exists. The secret key would be exposed to users.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * Where to log requests, retries and rate-limit waits (never the key).
   * @default no logging
   */
  logger?: Logger | undefined;
  /**
   * Least severe level that is logged.
   * @default 'info'
   */
  logLevel?: LogLevel | undefined;
  /**
   * `false`: an OpenTelemetry instrumentation registered in the process
   * (`school-admin-sdk/otel`) does not see this client's calls (no spans, no metrics, no
   * `traceparent` header). A client derived with `withOptions` may say otherwise for its own calls.
   * @default true (nothing is recorded while no instrumentation is registered)
   */
  telemetry?: boolean | undefined;
}

/** Every default of {@link AdminClientOptions}, in one place. */
export const DEFAULTS = Object.freeze({
  /** {@link AdminClientOptions.timeoutMs}. */
  timeoutMs: 30_000,
  /** {@link AdminClientOptions.maxRetries}. */
  maxRetries: 4,
  /** {@link PacingOptions.mutations}: the spec's 200 mutations per minute. */
  mutations: Object.freeze<RateLimitBudget>({ limit: 200, windowMs: 60_000 }),
  /** {@link PacingOptions.queries}: the spec's 600 queries per minute. */
  queries: Object.freeze<RateLimitBudget>({ limit: 600, windowMs: 60_000 }),
  /** {@link PacingOptions.leaseMs} is `timeoutMs` plus this margin. */
  leaseMarginMs: 5_000,
  /** {@link PacingOptions.interactiveReserve}: this share of the limit in force, at least one slot. */
  interactiveReserveShare: 0.02,
  /**
   * The share of the limit a bulk job's first window hands out across the window rather than at
   * once (at least the reserve): a job fills the budget within a round trip and nothing frees for a
   * window, so interactive calls that start in that window find these slots; bulk work takes them,
   * a little later, when nobody asks.
   */
  bulkRampShare: 0.25,
  /** {@link PacingOptions.waitingThresholdMs}. */
  waitingThresholdMs: 1_000,
  /** {@link AdminClientOptions.retryBaseDelayMs}. */
  retryBaseDelayMs: 500,
  /** {@link AdminClientOptions.maxRetryDelayMs}. */
  maxRetryDelayMs: 10_000,
  /** {@link AdminClientOptions.maxRateLimitWaitMs}. */
  maxRateLimitWaitMs: 120_000,
  /** {@link AdminClientOptions.maxResponseBytes} (16 MiB). */
  maxResponseBytes: 16 * 1024 * 1024,
  /** {@link AdminClientOptions.bulkChunkSize}. */
  bulkChunkSize: 100,
  /** {@link AdminClientOptions.authErrorCodes}. */
  authErrorCodes: Object.freeze(['UNAUTHENTICATED', 'UNAUTHORIZED', 'FORBIDDEN']),
  /** {@link AdminClientOptions.requestIdHeaders}. */
  requestIdHeaders: Object.freeze(['x-request-id', 'request-id', 'x-amzn-requestid', 'cf-ray']),
  /** {@link AdminClientOptions.logLevel}. */
  logLevel: 'info' as LogLevel,
  /** {@link AdminClientOptions.telemetry}. */
  telemetry: true,
});
