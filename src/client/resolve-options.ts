import { InvalidInputError } from '../errors/invalid-input-error.js';
import type { PermitStore } from '../rate-limit/permit-store.js';
import { DEFAULTS, type AdminClientOptions, type Logger, type LogLevel, type RateLimitBudget } from './options.js';

/** Options with every default applied and every value checked. */
export interface ResolvedClientOptions {
  apiKey: string;
  endpoint: string;
  fetch: typeof globalThis.fetch;
  timeoutMs: number;
  maxRetries: number;
  pacing:
    | {
        mutations: RateLimitBudget;
        queries: RateLimitBudget;
        /** Which limits were configured explicitly (ceilings the server's stated limit may only lower). */
        configuredLimits: { mutations: boolean; queries: boolean };
        store: PermitStore | undefined;
        leaseMs: number;
        interactiveReserve: number;
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
  logger: Logger | undefined;
  logLevel: LogLevel;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Applies {@link DEFAULTS} and refuses unusable options with an `InvalidInputError` naming the
 * option (never echoing the key).
 */
export function resolveOptions(options: AdminClientOptions): ResolvedClientOptions {
  const fail = (field: string, problem: string): never => {
    throw new InvalidInputError(`Failed to create the AdminClient: ${problem}.`, { operation: 'AdminClient', field });
  };
  if (options === null || typeof options !== 'object') fail('options', 'pass an options object with apiKey and baseUrl');
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') fail('apiKey', 'apiKey is required (the school\'s secret key)');
  if (options.dangerouslyAllowBrowser !== true && isBrowserLike()) {
    fail('dangerouslyAllowBrowser', 'this looks like a browser, where the secret key would be exposed to users; call the API from your server, or set dangerouslyAllowBrowser: true if you really mean it');
  }
  const endpoint = adminEndpoint(options.baseUrl, options.allowInsecureHttp === true, fail);
  const timeoutMs = positive(options.timeoutMs, DEFAULTS.timeoutMs, 'timeoutMs', fail);
  const leaseMs = positive(options.limits === false ? undefined : options.limits?.leaseMs, timeoutMs + DEFAULTS.leaseMarginMs, 'limits.leaseMs', fail);
  // A lease shorter than a request may take would free its permit while the request can still arrive.
  if (leaseMs <= timeoutMs) fail('limits.leaseMs', 'limits.leaseMs must be longer than timeoutMs');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') fail('fetch', 'no fetch is available; pass one in options.fetch');
  return {
    apiKey: options.apiKey,
    endpoint,
    fetch: fetchImpl,
    timeoutMs,
    maxRetries: nonNegativeInteger(options.maxRetries, DEFAULTS.maxRetries, 'maxRetries', fail),
    pacing:
      options.limits === false
        ? false
        : {
            mutations: budget(options.limits?.mutations, DEFAULTS.mutations, 'limits.mutations', fail),
            queries: budget(options.limits?.queries, DEFAULTS.queries, 'limits.queries', fail),
            configuredLimits: { mutations: options.limits?.mutations?.limit !== undefined, queries: options.limits?.queries?.limit !== undefined },
            store: options.limits?.store,
            leaseMs,
            interactiveReserve: nonNegativeInteger(options.limits?.interactiveReserve, DEFAULTS.interactiveReserve, 'limits.interactiveReserve', fail),
            waitingThresholdMs: nonNegative(options.limits?.waitingThresholdMs, DEFAULTS.waitingThresholdMs, 'limits.waitingThresholdMs', fail),
          },
    retryBaseDelayMs: nonNegative(options.retryBaseDelayMs, DEFAULTS.retryBaseDelayMs, 'retryBaseDelayMs', fail),
    maxRetryDelayMs: nonNegative(options.maxRetryDelayMs, DEFAULTS.maxRetryDelayMs, 'maxRetryDelayMs', fail),
    maxRateLimitWaitMs: nonNegative(options.maxRateLimitWaitMs, DEFAULTS.maxRateLimitWaitMs, 'maxRateLimitWaitMs', fail),
    maxResponseBytes: positive(options.maxResponseBytes, DEFAULTS.maxResponseBytes, 'maxResponseBytes', fail),
    bulkChunkSize: positiveInteger(options.bulkChunkSize, DEFAULTS.bulkChunkSize, 'bulkChunkSize', fail),
    authErrorCodes: options.authErrorCodes ?? DEFAULTS.authErrorCodes,
    userAgentSuffix: options.userAgent,
    logger: options.logger,
    logLevel: options.logLevel ?? DEFAULTS.logLevel,
  };
}

type Fail = (field: string, problem: string) => never;

function adminEndpoint(baseUrl: unknown, allowInsecureHttp: boolean, fail: Fail): string {
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') return fail('baseUrl', 'baseUrl is required (e.g. https://school.example)');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return fail('baseUrl', 'baseUrl is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('baseUrl', 'baseUrl must use https');
  if (url.username !== '' || url.password !== '') return fail('baseUrl', 'baseUrl must not contain credentials');
  if (url.protocol === 'http:' && !allowInsecureHttp && !LOOPBACK_HOSTS.has(url.hostname)) {
    return fail('baseUrl', 'plain http would send the secret key unencrypted; use https, or set allowInsecureHttp: true for a trusted network');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}/admin/graphql`;
}

/** A page (window with a document) or a Web Worker: code there is delivered to users, and the key with it. */
function isBrowserLike(): boolean {
  const scope = globalThis as { window?: { document?: unknown }; WorkerGlobalScope?: unknown };
  const page = typeof scope.window === 'object' && scope.window !== null && typeof scope.window.document !== 'undefined';
  return page || typeof scope.WorkerGlobalScope === 'function';
}

function budget(value: Partial<RateLimitBudget> | undefined, fallback: RateLimitBudget, field: string, fail: Fail): RateLimitBudget {
  return {
    limit: positiveInteger(value?.limit, fallback.limit, `${field}.limit`, fail),
    windowMs: positive(value?.windowMs, fallback.windowMs, `${field}.windowMs`, fail),
  };
}

function positive(value: number | undefined, fallback: number, field: string, fail: Fail): number {
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fail(field, `${field} must be a positive number`);
}

function nonNegative(value: number | undefined, fallback: number, field: string, fail: Fail): number {
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fail(field, `${field} must be zero or more`);
}

function positiveInteger(value: number | undefined, fallback: number, field: string, fail: Fail): number {
  if (value === undefined) return fallback;
  return Number.isInteger(value) && value > 0 ? value : fail(field, `${field} must be a positive integer`);
}

function nonNegativeInteger(value: number | undefined, fallback: number, field: string, fail: Fail): number {
  if (value === undefined) return fallback;
  return Number.isInteger(value) && value >= 0 ? value : fail(field, `${field} must be zero or a positive integer`);
}
