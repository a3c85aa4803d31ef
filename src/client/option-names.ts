import type { AdminClientOptions } from './options.js';

/** Every option of {@link AdminClientOptions}: the compiler refuses a name missing here or one too many. */
const OPTION_NAMES: readonly string[] = Object.keys({
  apiKey: true,
  baseUrl: true,
  fetch: true,
  timeoutMs: true,
  maxRetries: true,
  limits: true,
  retryBaseDelayMs: true,
  maxRetryDelayMs: true,
  maxRateLimitWaitMs: true,
  maxResponseBytes: true,
  bulkChunkSize: true,
  authErrorCodes: true,
  userAgent: true,
  headers: true,
  requestIdHeaders: true,
  priority: true,
  allowInsecureHttp: true,
  dangerouslyAllowBrowser: true,
  logger: true,
  logLevel: true,
} satisfies Record<keyof AdminClientOptions, true>);

const KNOWN: ReadonlySet<string> = new Set(OPTION_NAMES);

/** True for the name of an option of `new AdminClient` (and so the only names `withOptions` may know). */
export function isClientOption(name: string): name is keyof AdminClientOptions {
  return KNOWN.has(name);
}

/**
 * Why `name` is refused: it is no option of AdminClient, with the option it was probably meant to
 * be (the same name in other letter case, or one or two letters off), so a typo does not pass as
 * a default silently.
 */
export function unknownOptionProblem(name: string): string {
  const meant = OPTION_NAMES.find((known) => known.toLowerCase() === name.toLowerCase()) ?? OPTION_NAMES.find((known) => editDistance(known, name) <= 2);
  return `${name} is not an option of AdminClient${meant === undefined ? '' : ` (did you mean ${meant}?)`}`;
}

/** Levenshtein distance, for names of a few dozen characters. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
