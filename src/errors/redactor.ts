const REDACTED = '[redacted]';
/** Any live key, even one the caller did not configure (a server echoing a key must not leak it). */
const API_KEY_PATTERN = /sk_live_[A-Za-z0-9_-]+/g;
/** Shorter strings (ids like "u1") would blank out unrelated text; they are not personal data either. */
const MIN_REDACTED_LENGTH = 3;
/** Server data nested deeper than this is replaced, not walked: a hostile body must not overflow the stack. */
const MAX_DEPTH = 64;
const REGEXP_SYNTAX = /[.*+?^${}()|[\]\\/]/g;

/**
 * Removes secrets and request variables from server-provided text before it reaches an error or a
 * log. `secret()` strips only API keys (applied to everything the SDK stores, and to every finished
 * message); `text()` also strips the string values of the request's variables, whatever their
 * letter case (emails match case-insensitively), and is applied to the server's parts of a message,
 * never to the SDK's own wording.
 */
export class Redactor {
  readonly #secrets: string[];
  readonly #variables: unknown;
  #values: RegExp | null | undefined;

  /**
   * @param secrets - values that must never appear anywhere (the API key)
   * @param variables - the request's variables; their string leaves are hidden from server text
   */
  constructor(secrets: readonly string[], variables?: unknown) {
    // Longest first, so a secret containing another goes whole.
    this.#secrets = secrets.filter((secret) => secret.length > 0).sort((a, b) => b.length - a.length);
    this.#variables = variables;
  }

  /** Strips API keys only: the configured key exactly first (whatever its characters), then any `sk_live_` key. */
  secret(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join(REDACTED);
    return out.replace(API_KEY_PATTERN, REDACTED);
  }

  /** Strips API keys and the request's variable values (case-insensitively). */
  text(text: string): string {
    const out = this.secret(text);
    // Built on first use: most calls succeed and never build an error message.
    if (this.#values === undefined) this.#values = valuesPattern(this.#variables);
    return this.#values === null ? out : out.replace(this.#values, REDACTED);
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

/** One case-insensitive pattern of every variable value worth hiding, longest first; null when none. */
function valuesPattern(variables: unknown): RegExp | null {
  const values = [...new Set(stringLeaves(variables))]
    .filter((value) => value.length >= MIN_REDACTED_LENGTH)
    .sort((a, b) => b.length - a.length);
  if (values.length === 0) return null;
  return new RegExp(values.map((value) => value.replace(REGEXP_SYNTAX, '\\$&')).join('|'), 'gi');
}

/** Maps every string of a JSON-like value, property names included (a server may echo anything anywhere). */
function mapStrings(value: unknown, map: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return map(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [map(key), mapStrings(item, map, depth + 1)]));
}

/** The string leaves of the variables, walked iteratively (a caller's value may be deep or cyclic). */
function stringLeaves(root: unknown): string[] {
  const leaves: string[] = [];
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') leaves.push(value);
    else if (value !== null && typeof value === 'object' && !(value instanceof Date) && !seen.has(value)) {
      seen.add(value);
      for (const item of Array.isArray(value) ? value : Object.values(value)) stack.push(item);
    }
  }
  return leaves;
}
