/**
 * A clock that moves only when a test moves it, in epoch milliseconds.
 *
 * @example
 * ```ts
 * const clock = new VirtualClock();
 * const store = new MemoryPermitStore({ now: clock.now });
 * clock.advance(1_000);
 * ```
 */
export class VirtualClock {
  #nowMs: number;

  /** @param startMs The first time it reads; a realistic epoch time by default. */
  constructor(startMs = 1_767_225_600_000) {
    this.#nowMs = startMs;
  }

  /** Reads the clock (bound, so it can be passed as a `now` option). */
  readonly now = (): number => this.#nowMs;

  /** Moves the clock forward by `ms`. */
  advance(ms: number): void {
    this.set(this.#nowMs + ms);
  }

  /** Moves the clock to `ms`; time never goes back. */
  set(ms: number): void {
    if (ms < this.#nowMs) throw new Error(`VirtualClock cannot go back from ${this.#nowMs} to ${ms}`);
    this.#nowMs = ms;
  }
}
