/** The environment variable `apiKey` defaults to. */
export const API_KEY_VARIABLE = 'ADMIN_API_KEY';
/** The environment variable `baseUrl` defaults to. */
export const BASE_URL_VARIABLE = 'ADMIN_API_URL';

/**
 * A variable of the process environment, trimmed; undefined when unset or blank, and wherever there
 * is no `process.env` to read (edge runtimes have no `process`; Deno refuses it without
 * `--allow-env`, which throws). Read through `globalThis`, so a bundler's `process` shim is not
 * required and nothing is replaced at build time.
 */
export function environmentVariable(name: string): string | undefined {
  let value: unknown;
  try {
    value = (globalThis as { process?: { env?: Record<string, unknown> } }).process?.env?.[name];
  } catch {
    return undefined;
  }
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
