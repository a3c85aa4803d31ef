/**
 * The stop logic of a bulk job. `stopping` turns true when the caller's signal aborts (or the job
 * halts itself after a job-level error): workers then take no new row. After a caller's abort, the
 * calls still running get `graceMs` to finish; then their signals abort.
 */
export class InterruptGate {
  /** One controller per call in flight (one shared signal would collect hundreds of listeners). */
  readonly #calls = new Set<AbortController>();
  readonly #signal: AbortSignal | undefined;
  readonly #graceMs: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #halted = false;
  #cancelled = false;
  /** Workers waiting for a row, woken with nothing when the job stops. */
  readonly #waiting = new Set<() => void>();

  constructor(signal: AbortSignal | undefined, graceMs: number) {
    this.#signal = signal;
    this.#graceMs = graceMs;
    if (signal?.aborted) this.#onAbort();
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** True once no new row should be taken. */
  get stopping(): boolean {
    return this.#halted || this.interrupted;
  }

  /** True when the caller's signal aborted. */
  get interrupted(): boolean {
    return this.#signal?.aborted === true;
  }

  /**
   * Waits for `pending` (the next row), or resolves with `undefined` as soon as the job stops,
   * whichever comes first. Nothing stays attached once it has settled: racing every row against
   * one long-lived "stopped" promise would keep a reaction per row alive for the whole job.
   */
  unlessStopped<T>(pending: Promise<T>): Promise<T | undefined> {
    if (this.stopping) return Promise.resolve(undefined);
    return new Promise<T | undefined>((resolve, reject) => {
      const wake = (): void => resolve(undefined);
      this.#waiting.add(wake);
      pending.then(
        (value) => {
          this.#waiting.delete(wake);
          resolve(value);
        },
        (error: unknown) => {
          this.#waiting.delete(wake);
          reject(error);
        },
      );
    });
  }

  /**
   * Runs one call with its own signal, aborted when the grace period after an interrupt ends.
   * `cancelled` tells the caller whether a failure came from that abort.
   */
  async run<T>(call: (signal: AbortSignal) => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown; cancelled: boolean }> {
    const controller = new AbortController();
    if (this.#cancelled) controller.abort(this.#signal?.reason);
    this.#calls.add(controller);
    try {
      return { ok: true, value: await call(controller.signal) };
    } catch (error) {
      return { ok: false, error, cancelled: controller.signal.aborted };
    } finally {
      this.#calls.delete(controller);
    }
  }

  /** Stops taking rows without cancelling the calls in flight (after a job-level error). */
  halt(): void {
    this.#halted = true;
    this.#wakeAll();
  }

  /** Clears the grace timer and the listener. */
  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  #wakeAll(): void {
    for (const wake of this.#waiting) wake();
    this.#waiting.clear();
  }

  readonly #onAbort = (): void => {
    this.#wakeAll();
    const cancel = (): void => {
      this.#cancelled = true;
      for (const controller of this.#calls) controller.abort(this.#signal?.reason);
    };
    if (this.#graceMs <= 0) cancel();
    else this.#timer = setTimeout(cancel, this.#graceMs);
  };
}
