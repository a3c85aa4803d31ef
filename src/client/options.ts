import type { PermitStore } from '../rate-limit/permit-store.js';

/** A rate-limit budget: at most `limit` requests in any sliding window of `windowMs`. */
export interface RateLimitBudget {
  limit: number;
  windowMs: number;
}

/** Client-side pacing under the server's rate limits. */
export interface PacingOptions {
  /**
   * Budget for mutations.
   * @default { limit: 200, windowMs: 60_000 }
   */
  mutations?: Partial<RateLimitBudget>;
  /**
   * Budget for queries (every document not starting with `mutation`).
   * @default { limit: 600, windowMs: 60_000 }
   */
  queries?: Partial<RateLimitBudget>;
  /**
   * Where permits are counted. Share a `RedisPermitStore` (`school-admin-sdk/redis`) to pace
   * several processes that use one key.
   * @default a store shared by every client of this process
   */
  store?: PermitStore;
  /**
   * How long a permit may stay unanswered before it counts as answered (bounds what a crashed
   * process can hold in a shared store).
   * @default timeoutMs + 5_000
   */
  leaseMs?: number;
  /**
   * Interactive calls of the key that can go out at once while bulk work (background calls) has
   * the budget, per window. While interactive calls are about (one asked within the last window),
   * background work leaves one slot free, so the slot an interactive call's count leaves goes to
   * the next one; and during the first window of interactive traffic or of a bulk job's burst, it
   * holds at most `limit - interactiveReserve` slots, since a bulk job fills the budget within a
   * round trip and nothing frees before a window has passed. The cost, paid only then: bulk work
   * has up to `interactiveReserve` slots fewer for one window (and one fewer while interactive
   * calls are about). `0` turns the reserve off: interactive calls still go first, but wait for
   * the next slot to free. Figures: bench/README.md, "QoS".
   * @default 6
   */
  interactiveReserve?: number;
  /**
   * A call that has waited longer than this for its permit emits a `waiting` event (and a log line).
   * @default 1_000
   */
  waitingThresholdMs?: number;
}

/** Something that accepts log lines; `console` fits. Lines never contain the API key. */
export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** Log levels, most verbose first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/**
 * Options of `new AdminClient(options)`. Only `apiKey` and `baseUrl` are required.
 *
 * @example
 * ```ts
 * const admin = new AdminClient({
 *   apiKey: process.env.ADMIN_API_KEY!,
 *   baseUrl: 'https://school.example',
 * });
 * ```
 */
export interface AdminClientOptions {
  /** The school's secret key (`sk_live_...`), sent as `X-Service-API-Key`. Never logged or put in errors. */
  apiKey: string;
  /** The school's base URL; requests go to `${baseUrl}/admin/graphql`. */
  baseUrl: string;
  /**
   * A custom `fetch` (for proxies, instrumentation, tests).
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch;
  /**
   * Per attempt: until the whole response has arrived.
   * @default 30_000
   */
  timeoutMs?: number;
  /**
   * How often a call is retried, for transient failures (operations safe to repeat only) and,
   * separately, for 429 responses.
   * @default 4
   */
  maxRetries?: number;
  /**
   * Client-side pacing; `false` turns it off (429s are still honoured).
   * @default { mutations: { limit: 200, windowMs: 60_000 }, queries: { limit: 600, windowMs: 60_000 } }
   */
  limits?: PacingOptions | false;
  /**
   * First delay of the exponential backoff between retries (jittered, doubling each time).
   * @default 500
   */
  retryBaseDelayMs?: number;
  /**
   * Longest delay between two retries of a transient failure.
   * @default 10_000
   */
  maxRetryDelayMs?: number;
  /**
   * Longest a call waits after a 429 before it gives up with `RateLimitError` (also the cap of
   * any single wait the server asks for).
   * @default 120_000
   */
  maxRateLimitWaitMs?: number;
  /**
   * Responses larger than this fail with `InvalidResponseError` (`too_large`) instead of being buffered.
   * @default 16_777_216 (16 MiB)
   */
  maxResponseBytes?: number;
  /**
   * Rows per `bulkCreateMeetings`/`bulkCancelMeetings` request; larger inputs are sent in chunks
   * (results keep input order; `atomic` batches cannot be chunked). The spec does not state the
   * server's maximum.
   * @default 100
   */
  bulkChunkSize?: number;
  /**
   * GraphQL error codes (`extensions.code`) that mean the key was refused. The spec does not show
   * how the server reports a missing or under-scoped key; HTTP 401/403 always count.
   * @default ['UNAUTHENTICATED', 'UNAUTHORIZED', 'FORBIDDEN']
   */
  authErrorCodes?: readonly string[];
  /**
   * Text appended to the `User-Agent` header (e.g. your app's name and version).
   */
  userAgent?: string;
  /**
   * Allow plain `http://` to hosts other than loopback (the key would travel unencrypted).
   * @default false
   */
  allowInsecureHttp?: boolean;
  /**
   * Allow running where a browser-like global exists. The secret key would be exposed to users.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean;
  /**
   * Where to log requests, retries and rate-limit waits (never the key).
   * @default no logging
   */
  logger?: Logger;
  /**
   * Least severe level that is logged.
   * @default 'info'
   */
  logLevel?: LogLevel;
}

/** Every default of {@link AdminClientOptions}, in one place. */
export const DEFAULTS = Object.freeze({
  timeoutMs: 30_000,
  maxRetries: 4,
  mutations: Object.freeze({ limit: 200, windowMs: 60_000 }),
  queries: Object.freeze({ limit: 600, windowMs: 60_000 }),
  leaseMarginMs: 5_000,
  interactiveReserve: 6,
  waitingThresholdMs: 1_000,
  retryBaseDelayMs: 500,
  maxRetryDelayMs: 10_000,
  maxRateLimitWaitMs: 120_000,
  maxResponseBytes: 16 * 1024 * 1024,
  bulkChunkSize: 100,
  authErrorCodes: Object.freeze(['UNAUTHENTICATED', 'UNAUTHORIZED', 'FORBIDDEN']),
  logLevel: 'info' as LogLevel,
});
