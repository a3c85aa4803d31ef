import { DependencyLoadError } from '../errors/dependency-load-error.js';
import { errorBase, type ErrorContext } from '../response/error-context.js';
import { sanitizedCause } from '../response/transport-error.js';

/**
 * A module imported on first use and kept, so importing the SDK does not pay for it. A failed
 * import is not kept: the next use tries again (a process out of file descriptors recovers once
 * some close; a rejection memoised forever would fail every later call).
 */
export class LazyModule<T> {
  readonly #load: () => Promise<T>;
  #loading: Promise<T> | undefined;

  /** @param load - the `import()` of the module (a seam: tests pass one that fails). */
  constructor(load: () => Promise<T>) {
    this.#load = load;
  }

  /** The module, loaded now or earlier. */
  get(): Promise<T> {
    this.#loading ??= Promise.resolve()
      .then(this.#load)
      .catch((error: unknown) => {
        this.#loading = undefined;
        throw error;
      });
    return this.#loading;
  }
}

/**
 * The error a call rejects with when a module it needs could not be imported; `consequence` says
 * what the call could not do without it ("the job could not open its journal; nothing was sent").
 */
export function dependencyLoadError(context: ErrorContext, dependency: string, cause: unknown, consequence: string): DependencyLoadError {
  const systemCode = systemCodeOf(cause);
  return new DependencyLoadError(
    `Failed to ${context.label}: ${dependency} could not be loaded (${systemCode ?? (cause instanceof Error ? cause.name : 'unknown error')}), so ${consequence}. ` +
      'It is loaded again on the next call; if this repeats, check the process\'s open-file limit (ulimit -n) and the installation.',
    { ...errorBase(context), dependency, systemCode, cause: sanitizedCause(cause, context) },
  );
}

function systemCodeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : undefined;
}
