import { InvalidInputError } from '../../errors/invalid-input-error.js';
import type { PermitStore } from '../../rate-limit/permit-store.js';
import { PRIORITIES } from '../../rate-limit/priority.js';
import { isHeaderSafeKey } from '../../validation/api-key.js';
import { adminEndpointOf, baseUrlProblemText } from './base-url.js';
import { API_KEY_VARIABLE, BASE_URL_VARIABLE, environmentVariable } from './environment.js';
import { isHeaderName, isHeaderValue, mergeExtraHeaders, UNCARRIABLE, type ExtraHeaders } from '../pipeline/extra-headers.js';
import { isClientOption, unknownOptionProblem } from './option-names.js';
import { DEFAULTS, type AdminClientOptions, type Logger, type LogLevel, type PacingOptions, type RateLimitBudget } from './options.js';
import type { Priority } from '../types/types.js';

/** Options with every default applied and every value checked. */
export interface ResolvedClientOptions {
  apiKey: string;
  endpoint: string;
  /** The caller's fetch; `undefined` means `globalThis.fetch` as it is at each request (msw may patch it after the client was made). */
  fetch: typeof globalThis.fetch | undefined;
  timeoutMs: number;
  maxRetries: number;
  pacing:
    | {
        mutations: RateLimitBudget;
        queries: RateLimitBudget;
        /** Which limits were configured explicitly (ceilings the server's stated limit may only lower). */
        /** Whether each type's limit was configured explicitly (a ceiling the server's figures may only lower). */
        configuredLimits: { mutations: boolean; queries: boolean };
        /** Whether each type's window was configured explicitly (a floor the server's figures may only lengthen). */
        configuredWindows: { mutations: boolean; queries: boolean };
        store: PermitStore | undefined;
        leaseMs: number;
        /** Slots kept free for interactive calls; undefined: DEFAULTS.interactiveReserveShare of the limit in force. */
        interactiveReserve: number | undefined;
        waitingThresholdMs: number;
      }
    | false;
  retryBaseDelayMs: number;
  maxRetryDelayMs: number;
  maxRateLimitWaitMs: number;
  maxResponseBytes: number;
  bulkChunkSize: number;
  authErrorCodes: readonly string[];
  userAgentSuffix: string | undefined;
  /** Extra headers of every request, names lower-cased. */
  headers: ExtraHeaders;
  /** Lower-cased. */
  requestIdHeaders: readonly string[];
  priority: Priority | undefined;
  /** Seen by an instrumentation (`school-admin-sdk/otel`) when one is registered. */
  telemetry: boolean;
  logger: Logger | undefined;
  logLevel: LogLevel;
}

/**
 * Applies {@link DEFAULTS} and refuses unusable options with an `InvalidInputError` naming the
 * option (never echoing the key).
 */
export function resolveOptions(options: AdminClientOptions = {}): ResolvedClientOptions {
  const fail = (field: string, problem: string): never => {
    throw new InvalidInputError(`Failed to create the AdminClient: ${problem}.`, { operation: 'AdminClient', field });
  };
  if (options === null || typeof options !== 'object') fail('options', `pass an options object (apiKey and baseUrl may come from ${API_KEY_VARIABLE} and ${BASE_URL_VARIABLE})`);
  // A misspelt option would otherwise pass as its default, silently (withOptions refuses it too).
  for (const name of Object.keys(options)) if (!isClientOption(name)) fail(name, unknownOptionProblem(name));
  const { apiKey, baseUrl, keyFail, urlFail } = keyAndUrl(options, fail);
  if (typeof apiKey !== 'string' || apiKey.trim() === '') return keyFail('apiKey', 'apiKey is required (the school\'s secret key)');
  if (!isHeaderSafeKey(apiKey)) return keyFail('apiKey', 'apiKey has a character an HTTP header cannot carry (a line break, a control or non-ASCII character, or a space at either end); copy the key again');
  if (options.dangerouslyAllowBrowser !== true && isBrowserLike()) {
    fail('dangerouslyAllowBrowser', 'this looks like a browser, where the secret key would be exposed to users; call the API from your server, or set dangerouslyAllowBrowser: true if you really mean it');
  }
  const endpoint = adminEndpoint(baseUrl, options.allowInsecureHttp === true, urlFail);
  const timeoutMs = positive(options.timeoutMs, DEFAULTS.timeoutMs, 'timeoutMs', fail);
  const leaseMs = positive(options.limits === false ? undefined : options.limits?.leaseMs, timeoutMs + DEFAULTS.leaseMarginMs, 'limits.leaseMs', fail);
  // A lease shorter than a request may take would free its permit while the request can still arrive.
  if (leaseMs <= timeoutMs) fail('limits.leaseMs', 'limits.leaseMs must be longer than timeoutMs');
  // Checked now, looked up again at each request: never stored, so a fetch patched later is used.
  if (typeof (options.fetch ?? globalThis.fetch) !== 'function') fail('fetch', 'no fetch is available; pass one in options.fetch');
  const pacing: ResolvedClientOptions['pacing'] =
    options.limits === false
      ? false
      : {
          mutations: budget(options.limits?.mutations, DEFAULTS.mutations, 'limits.mutations', fail),
          queries: budget(options.limits?.queries, DEFAULTS.queries, 'limits.queries', fail),
          configuredLimits: perType(options.limits?.mutations?.limit !== undefined, options.limits?.queries?.limit !== undefined),
          configuredWindows: perType(options.limits?.mutations?.windowMs !== undefined, options.limits?.queries?.windowMs !== undefined),
          store: permitStore(options.limits?.store, fail),
          leaseMs,
          interactiveReserve: options.limits?.interactiveReserve === undefined ? undefined : nonNegativeInteger(options.limits.interactiveReserve, 0, 'limits.interactiveReserve', fail),
          waitingThresholdMs: nonNegative(options.limits?.waitingThresholdMs, DEFAULTS.waitingThresholdMs, 'limits.waitingThresholdMs', fail),
        };
  const tuning = callTuning(options, { ...DEFAULTS, headers: NO_HEADERS, priority: undefined }, fail);
  // One literal of every field, in this order (no spread): an object a client keeps for its
  // lifetime, in one piece (a spread one grows a separate property store, about 0.1 KB).
  return {
    apiKey,
    endpoint,
    fetch: options.fetch,
    timeoutMs,
    pacing,
    maxRetries: tuning.maxRetries,
    retryBaseDelayMs: tuning.retryBaseDelayMs,
    maxRetryDelayMs: tuning.maxRetryDelayMs,
    maxRateLimitWaitMs: tuning.maxRateLimitWaitMs,
    bulkChunkSize: tuning.bulkChunkSize,
    headers: tuning.headers,
    requestIdHeaders: tuning.requestIdHeaders,
    priority: tuning.priority,
    telemetry: tuning.telemetry,
    maxResponseBytes: positive(options.maxResponseBytes, DEFAULTS.maxResponseBytes, 'maxResponseBytes', fail),
    authErrorCodes: options.authErrorCodes ?? DEFAULTS.authErrorCodes,
    userAgentSuffix: userAgentSuffix(options.userAgent, fail),
    logger: options.logger,
    logLevel: options.logLevel ?? DEFAULTS.logLevel,
  };
}

/** No extra headers: one frozen object shared by every client that sets none. */
const NO_HEADERS: ExtraHeaders = Object.freeze({});

/** Says what is wrong with an option (throws). */
export type Fail = (field: string, problem: string) => never;

/** A store passed in `limits.store`: a Redis client passed as it is would fail only at the first call. */
function permitStore(store: PermitStore | undefined, fail: Fail): PermitStore | undefined {
  const { tryAcquire, release, pause } = (store ?? {}) as Partial<PermitStore>;
  if (store !== undefined && (typeof tryAcquire !== 'function' || typeof release !== 'function' || typeof pause !== 'function'))
    fail('limits.store', 'limits.store is not a PermitStore (tryAcquire, release, pause); for Redis pass new RedisPermitStore(client) from school-admin-sdk/redis');
  return store;
}

/** How calls are made: what a client sets and a derived client (`withOptions`) may change. */
export type CallTuning = Pick<ResolvedClientOptions, 'maxRetries' | 'retryBaseDelayMs' | 'maxRetryDelayMs' | 'maxRateLimitWaitMs' | 'bulkChunkSize' | 'headers' | 'requestIdHeaders' | 'priority' | 'telemetry'>;

/**
 * The call tuning of `options`, checked, each unset field taken from `fallback` (the defaults for
 * a new client, the parent's for a derived one): one set of rules for both.
 */
export function callTuning(options: Partial<Pick<AdminClientOptions, keyof CallTuning>>, fallback: CallTuning, fail: Fail): CallTuning {
  return {
    maxRetries: nonNegativeInteger(options.maxRetries, fallback.maxRetries, 'maxRetries', fail),
    retryBaseDelayMs: nonNegative(options.retryBaseDelayMs, fallback.retryBaseDelayMs, 'retryBaseDelayMs', fail),
    maxRetryDelayMs: nonNegative(options.maxRetryDelayMs, fallback.maxRetryDelayMs, 'maxRetryDelayMs', fail),
    maxRateLimitWaitMs: nonNegative(options.maxRateLimitWaitMs, fallback.maxRateLimitWaitMs, 'maxRateLimitWaitMs', fail),
    bulkChunkSize: positiveInteger(options.bulkChunkSize, fallback.bulkChunkSize, 'bulkChunkSize', fail),
    headers: mergeExtraHeaders(fallback.headers, options.headers, fail),
    requestIdHeaders: headerNames(options.requestIdHeaders, fallback.requestIdHeaders, 'requestIdHeaders', fail),
    priority: priority(options.priority, fallback.priority, 'priority', fail),
    telemetry: flag(options.telemetry, fallback.telemetry, 'telemetry', fail),
  };
}

/**
 * `apiKey` and `baseUrl` from the options, else from `ADMIN_API_KEY` and `ADMIN_API_URL`. With
 * neither, one error names the option and the variable (and says when the other pair is missing
 * too); a value read from the environment is named as such in any later refusal (never echoed).
 */
function keyAndUrl(options: AdminClientOptions, fail: Fail): { apiKey: unknown; baseUrl: unknown; keyFail: Fail; urlFail: Fail } {
  const apiKey = options.apiKey ?? environmentVariable(API_KEY_VARIABLE);
  const baseUrl = options.baseUrl ?? environmentVariable(BASE_URL_VARIABLE);
  const urlMissing = baseUrl === undefined;
  if (apiKey === undefined) {
    const too = urlMissing ? ` (baseUrl is missing too: pass it or set ${BASE_URL_VARIABLE})` : '';
    fail('apiKey', `no API key: pass apiKey (the school's secret key, sk_live_...) or set the ${API_KEY_VARIABLE} environment variable${too}`);
  }
  if (urlMissing) fail('baseUrl', `no base URL: pass baseUrl (e.g. https://school.example) or set the ${BASE_URL_VARIABLE} environment variable`);
  const from = (variable: string): Fail => (field, problem) => fail(field, `${problem} (it was read from ${variable})`);
  return {
    apiKey,
    baseUrl,
    keyFail: options.apiKey === undefined ? from(API_KEY_VARIABLE) : fail,
    urlFail: options.baseUrl === undefined ? from(BASE_URL_VARIABLE) : fail,
  };
}

function adminEndpoint(baseUrl: unknown, allowInsecureHttp: boolean, fail: Fail): string {
  const checked = adminEndpointOf(baseUrl, allowInsecureHttp);
  return 'endpoint' in checked ? checked.endpoint : fail('baseUrl', baseUrlProblemText(checked.problem));
}

/**
 * A page (window with a document) or a browser's Web Worker: code there is delivered to users, and
 * the key with it. Server runtimes that also define `WorkerGlobalScope` are not browsers: in
 * Cloudflare's workerd the global object is no instance of it, and Deno, Bun and workerd name
 * themselves in `navigator.userAgent`, where every browser says `Mozilla/5.0`.
 */
function isBrowserLike(): boolean {
  const scope = globalThis as { window?: { document?: unknown }; WorkerGlobalScope?: unknown; navigator?: { userAgent?: unknown } };
  const page = typeof scope.window === 'object' && scope.window !== null && typeof scope.window.document !== 'undefined';
  if (page) return true;
  const workerScope = scope.WorkerGlobalScope;
  const userAgent = scope.navigator?.userAgent;
  return typeof workerScope === 'function' && globalThis instanceof workerScope && typeof userAgent === 'string' && userAgent.startsWith('Mozilla/');
}

/** The `userAgent` option: it goes into the User-Agent header, so it must be a value a header can carry. */
function userAgentSuffix(value: string | undefined, fail: Fail): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return fail('userAgent', 'userAgent must be a string (your app\'s name and version)');
  return isHeaderValue(value) ? value : fail('userAgent', `userAgent ${UNCARRIABLE}`);
}

/** A yes or no for each operation type: four possible answers, frozen and shared by every client. */
export type PerType = Readonly<{ mutations: boolean; queries: boolean }>;
const NEITHER: PerType = Object.freeze({ mutations: false, queries: false });
const MUTATIONS_ONLY: PerType = Object.freeze({ mutations: true, queries: false });
const QUERIES_ONLY: PerType = Object.freeze({ mutations: false, queries: true });
const BOTH: PerType = Object.freeze({ mutations: true, queries: true });

/** The shared {@link PerType} of these two answers. */
export function perType(mutations: boolean, queries: boolean): PerType {
  if (mutations) return queries ? BOTH : MUTATIONS_ONLY;
  return queries ? QUERIES_ONLY : NEITHER;
}

function budget(value: PacingOptions['mutations'], fallback: RateLimitBudget, field: string, fail: Fail): RateLimitBudget {
  // The default budget (frozen) is shared: a process may hold thousands of clients.
  if (value?.limit === undefined && value?.windowMs === undefined) return fallback;
  return {
    limit: positiveInteger(value?.limit, fallback.limit, `${field}.limit`, fail),
    windowMs: positive(value?.windowMs, fallback.windowMs, `${field}.windowMs`, fail),
  };
}

/** `value` checked, or `fallback` when undefined. */
export function positive(value: number | undefined, fallback: number, field: string, fail: Fail): number {
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fail(field, `${field} must be a positive number`);
}

/** `value` checked, or `fallback` when undefined. */
export function nonNegative(value: number | undefined, fallback: number, field: string, fail: Fail): number {
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fail(field, `${field} must be zero or more`);
}

/** `value` checked, or `fallback` when undefined. */
export function positiveInteger(value: number | undefined, fallback: number, field: string, fail: Fail): number {
  if (value === undefined) return fallback;
  return Number.isInteger(value) && value > 0 ? value : fail(field, `${field} must be a positive integer`);
}

/** `value` checked (true or false, never a string that reads like one), or `fallback` when undefined. */
function flag(value: boolean | undefined, fallback: boolean, field: string, fail: Fail): boolean {
  if (value === undefined) return fallback;
  return typeof value === 'boolean' ? value : fail(field, `${field} must be true or false`);
}

/** `value` checked, or `fallback` when undefined. */
export function nonNegativeInteger(value: number | undefined, fallback: number, field: string, fail: Fail): number {
  if (value === undefined) return fallback;
  return Number.isInteger(value) && value >= 0 ? value : fail(field, `${field} must be zero or a positive integer`);
}

/** `value` checked, or `fallback` when undefined. */
export function priority(value: Priority | undefined, fallback: Priority | undefined, field: string, fail: Fail): Priority | undefined {
  if (value === undefined) return fallback;
  return PRIORITIES.includes(value) ? value : fail(field, `${field} must be 'interactive' or 'background'`);
}

/** `value` checked (a list of header names), lower-cased; or `fallback` when undefined. */
export function headerNames(value: readonly string[] | undefined, fallback: readonly string[], field: string, fail: Fail): readonly string[] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && isHeaderName(name))) {
    return fail(field, `${field} must be a list of header names`);
  }
  return Object.freeze(value.map((name) => name.toLowerCase()));
}
