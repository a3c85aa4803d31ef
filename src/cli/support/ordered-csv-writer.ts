import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { stringify, type Stringifier } from 'csv-stringify';

/**
 * Writes CSV records to a file in input order although they arrive in completion order: a record
 * waits until every earlier index has been written (only the few that finished early are held).
 * Honours the file's backpressure.
 */
export class OrderedCsvWriter<R extends Record<string, string | number>> {
  readonly #stringifier: Stringifier;
  readonly #file: WriteStream;
  readonly #held = new Map<number, R>();
  #next = 0;
  /** One wait for 'drain' shared by every writer held up: a listener each would pile up past Node's warning limit. */
  #drained: Promise<unknown> | undefined;

  private constructor(stringifier: Stringifier, file: WriteStream) {
    this.#stringifier = stringifier;
    this.#file = file;
  }

  /** Creates (or replaces) the file and writes the header row. */
  static async open<R extends Record<string, string | number>>(path: string, columns: ReadonlyArray<keyof R & string>): Promise<OrderedCsvWriter<R>> {
    const file = createWriteStream(path);
    await Promise.race([once(file, 'open'), once(file, 'error').then(([error]) => Promise.reject(error))]);
    const stringifier = stringify({ header: true, columns: [...columns] });
    stringifier.pipe(file);
    return new OrderedCsvWriter<R>(stringifier, file);
  }

  /** Adds the record of input `index` (0-based); resolves once it may be followed by more. */
  async write(index: number, record: R): Promise<void> {
    this.#held.set(index, record);
    for (let ready = this.#held.get(this.#next); ready !== undefined; ready = this.#held.get(this.#next)) {
      this.#held.delete(this.#next);
      this.#next += 1;
      if (!this.#stringifier.write(ready)) await this.#drain();
    }
  }

  /** True when the record of input `index` was given (written, or held until the earlier ones come). */
  has(index: number): boolean {
    return index < this.#next || this.#held.has(index);
  }

  #drain(): Promise<unknown> {
    this.#drained ??= once(this.#stringifier, 'drain').finally(() => {
      this.#drained = undefined;
    });
    return this.#drained;
  }

  /**
   * Writes what is still held (records after a gap left by an interrupted run), in index order,
   * and closes the file.
   */
  async close(): Promise<void> {
    for (const index of [...this.#held.keys()].sort((a, b) => a - b)) this.#stringifier.write(this.#held.get(index));
    this.#held.clear();
    const finished = once(this.#file, 'close');
    this.#stringifier.end();
    await finished;
  }
}
