import { AdminApiError, type AdminApiErrorOptions } from './admin-api-error.js';

/** Fields of a {@link DependencyLoadError}. */
export interface DependencyLoadErrorOptions extends AdminApiErrorOptions {
  /**
   * The module that could not be imported: `'p-retry'` (retries), `'journal'` (the bulk grant
   * journal), or `'ioredis'` / `'redis'` (a Redis permit store made from a URL: `'ioredis'` when
   * neither is installed).
   */
  dependency: string;
  /** The system error code of the failed import (`'EMFILE'`, `'ENOENT'`, ...), when it had one. */
  systemCode: string | undefined;
}

/**
 * A module the SDK imports on first use could not be loaded: p-retry, after a call's first failed
 * attempt (so the call could not be retried), the journal of `grantCouponToMany` (before
 * anything was sent), or a Redis client library for `createRedisPermitStore(url)` (neither ioredis
 * nor redis installed, or one that fails to load). Usually the process ran out of file descriptors (`systemCode: 'EMFILE'`) or
 * the installation is broken. The call rejects with this error instead of crashing the process,
 * and the import is tried again on the next call.
 */
export class DependencyLoadError extends AdminApiError {
  override name = 'DependencyLoadError';
  /** The module that could not be imported. */
  readonly dependency: string;
  /** The system error code of the failed import, when it had one. */
  readonly systemCode: string | undefined;

  constructor(message: string, options: DependencyLoadErrorOptions) {
    super(message, options);
    this.dependency = options.dependency;
    this.systemCode = options.systemCode;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { dependency: this.dependency, systemCode: this.systemCode };
  }
}
