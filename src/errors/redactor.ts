const REDACTED = '[redacted]';
/** Any live key, even one the caller did not configure (a server echoing a key must not leak it). */
const API_KEY_PATTERN = /sk_live_[A-Za-z0-9_-]+/g;
/** Shorter strings (ids like "u1") would blank out unrelated text; they are not personal data either. */
const MIN_REDACTED_LENGTH = 3;
/** Server data nested deeper than this is replaced, not walked: a hostile body must not overflow the stack. */
const MAX_DEPTH = 64;

/**
 * Removes secrets and request variables from text before it reaches an error or a log.
 * `secret()` strips only API keys (applied to everything the SDK stores); `text()` also strips the
 * string values of the request's variables (applied to messages, stacks and `toJSON`).
 */
export class Redactor {
  readonly #secrets: string[];
  readonly #variables: unknown;
  #values: string[] | undefined;

  /**
   * @param secrets - values that must never appear anywhere (the API key)
   * @param variables - the request's variables; their string leaves are hidden from messages
   */
  constructor(secrets: readonly string[], variables?: unknown) {
    this.#secrets = secrets.filter((secret) => secret.length > 0);
    this.#variables = variables;
  }

  /** Strips API keys only. */
  secret(text: string): string {
    let out = text.replace(API_KEY_PATTERN, REDACTED);
    for (const secret of this.#secrets) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** Strips API keys and the request's variable values. */
  text(text: string): string {
    let out = this.secret(text);
    // Computed on first use: most calls succeed and never build an error message.
    this.#values ??= [...new Set(stringLeaves(this.#variables))]
      .filter((value) => value.length >= MIN_REDACTED_LENGTH)
      .sort((a, b) => b.length - a.length); // longest first, so a value containing another goes whole
    for (const value of this.#values) out = out.split(value).join(REDACTED);
    return out;
  }

  /** Applies {@link Redactor.text} to every string inside a JSON-like value. */
  deep(value: unknown): unknown {
    return mapStrings(value, (text) => this.text(text));
  }

  /** Applies {@link Redactor.secret} to every string inside a JSON-like value. */
  secretDeep<T>(value: T): T {
    return mapStrings(value, (text) => this.secret(text)) as T;
  }
}

/** A redactor for errors raised before any request exists (no key, no variables known). */
export const NO_SECRETS = new Redactor([]);

/** Maps every string of a JSON-like value, property names included (a server may echo anything anywhere). */
function mapStrings(value: unknown, map: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return map(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [map(key), mapStrings(item, map, depth + 1)]));
}

function* stringLeaves(value: unknown): Generator<string> {
  if (typeof value === 'string') {
    yield value;
  } else if (Array.isArray(value)) {
    for (const item of value) yield* stringLeaves(item);
  } else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const item of Object.values(value)) yield* stringLeaves(item);
  }
}
