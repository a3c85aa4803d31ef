import { DependencyLoadError } from '../../errors/dependency-load-error.js';
import { errorBase, type ErrorContext } from '../../response/error-context.js';
import { sanitizedCause } from '../../response/transport-error.js';

/**
 * A module imported on first use and kept, so importing the SDK does not pay for it. A failed
 * import is not kept: the next use tries again (a process out of file descriptors recovers once
 * some close; a rejection memoised forever would fail every later call).
 */
export class LazyModule<T> {
  #loading: Promise<T> | undefined;

  /**
   * @param name - the module, as errors name it (`'p-retry'`, `'journal'`)
   * @param load - its `import()` (a seam: tests pass one that fails)
   */
  constructor(
    readonly name: string,
    private readonly load: () => Promise<T>,
  ) {}

  /**
   * The module, loaded now or earlier. A failed import rejects with {@link DependencyLoadError}
   * for the call of `context`, `consequence` saying what the call could not do without it.
   */
  get(context: ErrorContext, consequence: string): Promise<T> {
    this.#loading ??= Promise.resolve().then(this.load);
    return this.#loading.catch((cause: unknown) => {
      this.#loading = undefined;
      const code = (cause as { code?: unknown } | null)?.code;
      const systemCode = typeof code === 'string' ? code : undefined;
      throw new DependencyLoadError(
        `Failed to ${context.label}: ${this.name} could not be loaded (${systemCode ?? 'no code'}), so ${consequence}. Check the open-file limit (ulimit -n); the next call tries again.`,
        { ...errorBase(context), dependency: this.name, systemCode, cause: sanitizedCause(cause, context) },
      );
    });
  }
}
