/** What a call waiting to retry after a failure that never reached the server is told. */
export interface UnreachableWaitInfo {
  /** How long the backoff has lasted so far. */
  waitedMs: number;
  /** At most how much longer it lasts (the backoff is randomised; this is its upper bound). */
  expectedMs: number;
  /** The failure's code (`'ECONNREFUSED'`, `'ENOTFOUND'`, ...), when the runtime gave one. */
  networkCode: string | undefined;
}

/**
 * Watches one call's retry backoffs after failures that surely never reached the server (p-retry
 * sleeps them; this only watches the clock), and tells `onWaiting` once per backoff that outlasts
 * `thresholdMs`: the same rule as a wait for a rate-limit permit (`limits.waitingThresholdMs`),
 * so a short backoff stays silent. At most one timer, gone when the next attempt starts or the
 * call ends.
 */
export class UnreachableWait {
  readonly #thresholdMs: number;
  readonly #onWaiting: (info: UnreachableWaitInfo) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(thresholdMs: number, onWaiting: (info: UnreachableWaitInfo) => void) {
    this.#thresholdMs = thresholdMs;
    this.#onWaiting = onWaiting;
  }

  /** A backoff of at most `boundMs` begins now, after a failure with `networkCode`. */
  begin(boundMs: number, networkCode: string | undefined): void {
    this.end();
    // A backoff that cannot outlast the threshold is never told.
    if (!(boundMs > this.#thresholdMs)) return;
    const startedAt = performance.now();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const waitedMs = Math.round(performance.now() - startedAt);
      this.#onWaiting({ waitedMs, expectedMs: Math.max(0, Math.round(boundMs - waitedMs)), networkCode });
    }, this.#thresholdMs);
  }

  /** The backoff is over: the next attempt starts, or the call ended. */
  end(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
