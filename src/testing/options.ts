import { systemClock, type Clock } from './clock.js';

/** One rate-limit budget: at most `limit` requests whose arrival lies within the past `windowMs`. */
export interface RateLimitRule {
  /** Maximum requests in any window. */
  limit: number;
  /** Length of the sliding window in milliseconds. */
  windowMs: number;
}

/** The two independent budgets of each API key (spec, "Limits"). */
export interface RateLimits {
  /** @default { limit: 200, windowMs: 60_000 } */
  mutations?: RateLimitRule | undefined;
  /** @default { limit: 600, windowMs: 60_000 } */
  queries?: RateLimitRule | undefined;
}

/** Delays that imitate a network around the simulated server. */
export interface LatencyOptions {
  /** Milliseconds between receiving a request and counting it as arrived (the uplink). */
  beforeArrivalMs?: (() => number) | undefined;
  /** Milliseconds between handling a request and answering it (the downlink). */
  afterHandlingMs?: (() => number) | undefined;
}

/**
 * How the simulator answers requests whose key is missing, unknown or lacks a scope. The spec does
 * not show these responses; the defaults follow common GraphQL-over-HTTP practice.
 */
export interface AuthOptions {
  /**
   * HTTP status for a missing or unknown key (body: a GraphQL error with `extensions.code`
   * `UNAUTHENTICATED`).
   * @default 401
   */
  unauthenticatedStatus?: number | undefined;
  /**
   * HTTP status for a key that lacks the scope an operation needs (body: a GraphQL error with
   * `extensions.code` `FORBIDDEN` and `extensions.requiredScopes`).
   * @default 403
   */
  forbiddenStatus?: number | undefined;
  /**
   * Scopes of which a key needs any one to call `updateSubscription` (not shown in the spec).
   * @default ['members:write']
   */
  updateSubscriptionScopes?: readonly string[] | undefined;
}

/** Options of {@link createSimulator}. Every default is listed here and nowhere else. */
export interface SimulatorOptions {
  /**
   * Time source in epoch milliseconds.
   * @default systemClock (real time)
   */
  clock?: Clock | undefined;
  /**
   * Rate limits per API key; `false` disables rate limiting.
   * @default { mutations: { limit: 200, windowMs: 60_000 }, queries: { limit: 600, windowMs: 60_000 } }
   */
  limits?: RateLimits | false | undefined;
  /**
   * Network delays around each request.
   * @default no delay
   */
  latency?: LatencyOptions | undefined;
  /** Answers to missing, unknown and under-scoped keys. */
  auth?: AuthOptions | undefined;
  /**
   * Seed of the deterministic generator of ids, coupon codes, keys and platform meeting ids.
   * @default 1
   */
  idSeed?: number | undefined;
  /**
   * Serialise `Subscription.currentPeriodEnd` as a string of digits, as the spec's sample response
   * does (the SDK must turn it back into a number).
   * @default true
   */
  currentPeriodEndAsString?: boolean | undefined;
  /**
   * How many requests {@link Simulator.requestLog} keeps (the oldest are dropped first).
   * @default 10_000
   */
  requestLogSize?: number | undefined;
  /**
   * When answers state the rate-limit budget. `'on-429'` follows the spec (Limits rule 6: a 429's
   * `X-RateLimit-Limit`, without its window). `'every-answer'` imitates a self-hosted server that
   * states its budget on every answer of a rate-limited request, 429s included: the IETF fields
   * (draft-ietf-httpapi-ratelimit-headers) `RateLimit-Policy: "mutations";q=<limit>;w=<window s>`
   * and `RateLimit: "mutations";r=<left>;t=<s until a slot frees>`, and `X-RateLimit-Limit` with
   * `X-RateLimit-Window` (seconds). Windows are stated in whole seconds, rounded up.
   * @default 'on-429'
   */
  rateLimitHeaders?: 'on-429' | 'every-answer' | undefined;
}

/** {@link SimulatorOptions} with every default applied. */
export interface ResolvedSimulatorOptions {
  /** {@link SimulatorOptions.clock}. */
  clock: Clock;
  /** {@link SimulatorOptions.limits}, both budgets set, or `false`. */
  limits: { [K in keyof RateLimits]-?: RateLimitRule } | false;
  /** {@link SimulatorOptions.latency}. */
  latency: {
    /** {@link LatencyOptions.beforeArrivalMs}, or none. */
    beforeArrivalMs: (() => number) | undefined;
    /** {@link LatencyOptions.afterHandlingMs}, or none. */
    afterHandlingMs: (() => number) | undefined;
  };
  /** {@link SimulatorOptions.auth}, every field set. */
  auth: { [K in keyof AuthOptions]-?: Exclude<AuthOptions[K], undefined> };
  /** {@link SimulatorOptions.idSeed}. */
  idSeed: number;
  /** {@link SimulatorOptions.currentPeriodEndAsString}. */
  currentPeriodEndAsString: boolean;
  /** {@link SimulatorOptions.requestLogSize}. */
  requestLogSize: number;
  /** {@link SimulatorOptions.rateLimitHeaders}. */
  rateLimitHeaders: 'on-429' | 'every-answer';
}

/** Applies the documented defaults of {@link SimulatorOptions}. */
export function resolveSimulatorOptions(options: SimulatorOptions = {}): ResolvedSimulatorOptions {
  return {
    clock: options.clock ?? systemClock,
    limits:
      options.limits === false
        ? false
        : {
            mutations: options.limits?.mutations ?? { limit: 200, windowMs: 60_000 },
            queries: options.limits?.queries ?? { limit: 600, windowMs: 60_000 },
          },
    latency: {
      beforeArrivalMs: options.latency?.beforeArrivalMs,
      afterHandlingMs: options.latency?.afterHandlingMs,
    },
    auth: {
      unauthenticatedStatus: options.auth?.unauthenticatedStatus ?? 401,
      forbiddenStatus: options.auth?.forbiddenStatus ?? 403,
      updateSubscriptionScopes: options.auth?.updateSubscriptionScopes ?? ['members:write'],
    },
    idSeed: options.idSeed ?? 1,
    currentPeriodEndAsString: options.currentPeriodEndAsString ?? true,
    requestLogSize: options.requestLogSize ?? 10_000,
    rateLimitHeaders: options.rateLimitHeaders ?? 'on-429',
  };
}
