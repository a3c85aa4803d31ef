import type { ScriptCall, ScriptConnection } from './script-connection.js';

/**
 * How many script calls a store keeps on its connection at once; the others wait their turn in the
 * store, in order. A burst of calls (1,000 keys x 20 calls made at once: 20,000 permit requests)
 * then waits here, where it costs a queued entry, instead of in the client's command queue, where
 * node-redis 6 fails a command after its default 5 s timeout (measured: 12,234 of 20,000 calls
 * failed) and every queued command holds its encoded arguments. 256 keeps Redis busy: each round
 * trip carries up to that many scripts.
 */
export const MAX_CALLS_IN_FLIGHT = 256;

/**
 * A {@link ScriptConnection} that keeps at most `limit` calls of `inner` in flight, starting the
 * others in the order they were made as calls end.
 */
export class CallsInFlight implements ScriptConnection {
  readonly #inner: ScriptConnection;
  readonly #limit: number;
  #running = 0;
  /** Calls waiting for a turn: each starts its call when it is let go. */
  readonly #waiting: (() => void)[] = [];
  /** The first waiting call (the queue is consumed from here; cut down as it drains). */
  #head = 0;

  constructor(inner: ScriptConnection, limit: number = MAX_CALLS_IN_FLIGHT) {
    this.#inner = inner;
    this.#limit = limit;
  }

  run(call: ScriptCall): Promise<unknown> {
    if (this.#running < this.#limit) {
      this.#running += 1;
      return this.#go(call);
    }
    // The slot is handed over by the call that ends (see #handOver).
    return new Promise<void>((resolve) => this.#waiting.push(resolve)).then(() => this.#go(call));
  }

  onDrop(listener: () => void): () => void {
    return this.#inner.onDrop(listener);
  }

  end(): Promise<void> {
    return this.#inner.end();
  }

  async #go(call: ScriptCall): Promise<unknown> {
    try {
      return await this.#inner.run(call);
    } finally {
      this.#handOver();
    }
  }

  /** Passes the slot of a call that ended to the first waiting call, or frees it. */
  #handOver(): void {
    if (this.#head >= this.#waiting.length) {
      this.#running -= 1;
      // Drained: drop the entries already let go (up to 1,023 otherwise stay after a burst).
      if (this.#head > 0) {
        this.#waiting.length = 0;
        this.#head = 0;
      }
      return;
    }
    const start = this.#waiting[this.#head] as () => void;
    this.#head += 1;
    if (this.#head >= 1_024 && this.#head * 2 >= this.#waiting.length) {
      this.#waiting.splice(0, this.#head);
      this.#head = 0;
    }
    start();
  }
}
