import type { GrantMemberRow, GrantMemberSource } from './types.js';

/** A row taken from the input, with its 0-based position. */
export interface IndexedRow {
  index: number;
  row: GrantMemberRow;
}

/**
 * Hands out the rows of an iterable or async iterable one at a time to several workers: `next()`
 * calls are chained, so the input is read strictly in order and never ahead of demand (memory
 * stays flat however long the input is).
 */
export class RowSource {
  readonly #iterator: Iterator<GrantMemberRow> | AsyncIterator<GrantMemberRow>;
  #pending: Promise<unknown> = Promise.resolve();
  #read = 0;
  #ended = false;
  #waiting = 0;

  constructor(source: GrantMemberSource) {
    this.#iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  }

  /** Rows handed out so far. */
  get read(): number {
    return this.#read;
  }

  /** The next row, or `undefined` once the input has ended. A throwing input rejects. */
  next(): Promise<IndexedRow | undefined> {
    this.#waiting += 1;
    const result = this.#pending.then(async (): Promise<IndexedRow | undefined> => {
      if (this.#ended) return undefined;
      const step = await this.#iterator.next();
      if (step.done === true) {
        this.#ended = true;
        return undefined;
      }
      const index = this.#read;
      this.#read += 1;
      return { index, row: step.value };
    });
    this.#pending = result.then(
      () => (this.#waiting -= 1),
      () => {
        this.#waiting -= 1;
        this.#ended = true;
      },
    );
    return result;
  }

  /**
   * Lets the input release what it holds (a file stream) when the job stops before its end. When a
   * read is still waiting on the input (a stalled stream), the input is told to end without waiting.
   */
  async close(): Promise<void> {
    if (this.#ended) return;
    this.#ended = true;
    const closing = Promise.resolve(this.#iterator.return?.()).catch(() => undefined);
    if (this.#waiting === 0) await closing;
  }
}
