import type { ClientOverrides } from '../facade/derive-options.js';
import type { AdminClientOptions } from './options.js';

/** The options `withOptions()` may change ({@link ClientOverrides}): the compiler refuses a name missing or too many. */
const OVERRIDABLE = {
  timeoutMs: true,
  maxRetries: true,
  headers: true,
  priority: true,
  retryBaseDelayMs: true,
  maxRetryDelayMs: true,
  maxRateLimitWaitMs: true,
  bulkChunkSize: true,
  authErrorCodes: true,
  requestIdHeaders: true,
  telemetry: true,
} satisfies Record<keyof ClientOverrides, true>;

/** Why each option a derived client cannot change stays its parent's. */
export const KEPT_FROM_PARENT: Readonly<Record<Exclude<keyof AdminClientOptions, keyof ClientOverrides>, string>> = {
  apiKey: 'another key is another client: create a new AdminClient',
  baseUrl: 'another server is another client: create a new AdminClient',
  fetch: 'the derived client sends through its parent\'s transport: create a new AdminClient for another fetch',
  allowInsecureHttp: 'it belongs to the parent\'s baseUrl: create a new AdminClient',
  dangerouslyAllowBrowser: 'it was decided when the parent was created',
  limits: 'a derived client shares its parent\'s rate-limit budget; set limits on the client you derive from',
  logger: 'the parent\'s logger already sees the derived client\'s calls; use on() of the derived client to see only its own',
  logLevel: 'the parent\'s logger already sees the derived client\'s calls; use on() of the derived client to see only its own',
  userAgent: 'the derived client sends through its parent\'s transport; add a header with headers instead',
  maxResponseBytes: 'the derived client reads through its parent\'s transport',
};

/** Every option of {@link AdminClientOptions}: the two tables' types together name each exactly once. */
const OPTION_NAMES: readonly string[] = [...Object.keys(OVERRIDABLE), ...Object.keys(KEPT_FROM_PARENT)];

const KNOWN: ReadonlySet<string> = new Set(OPTION_NAMES);

/** True for the name of an option of `new AdminClient` (and so the only names `withOptions` may know). */
export function isClientOption(name: string): name is keyof AdminClientOptions {
  return KNOWN.has(name);
}

/**
 * Why `name` is refused: it is no option of AdminClient, with the option it was probably meant to
 * be when only its letter case differs (`timeOutMs`), so a typo does not pass as a default silently.
 */
export function unknownOptionProblem(name: string): string {
  const meant = OPTION_NAMES.find((known) => known.toLowerCase() === name.toLowerCase());
  return `${name} is not an option of AdminClient${meant === undefined ? '' : ` (did you mean ${meant}?)`}`;
}
