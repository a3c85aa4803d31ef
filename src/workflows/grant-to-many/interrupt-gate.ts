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
  #resolveStopped: () => void = () => undefined;
  /** Settles when the job should stop taking rows. */
  readonly stopped: Promise<void>;

  constructor(signal: AbortSignal | undefined, graceMs: number) {
    this.#signal = signal;
    this.#graceMs = graceMs;
    this.stopped = new Promise((resolve) => (this.#resolveStopped = resolve));
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
    this.#resolveStopped();
  }

  /** Clears the grace timer and the listener. */
  dispose(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }

  readonly #onAbort = (): void => {
    this.#resolveStopped();
    const cancel = (): void => {
      this.#cancelled = true;
      for (const controller of this.#calls) controller.abort(this.#signal?.reason);
    };
    if (this.#graceMs <= 0) cancel();
    else this.#timer = setTimeout(cancel, this.#graceMs);
  };
}
