import { randomBytes } from 'node:crypto';

/**
 * The permit ids of one store instance: `<8 random characters>.<sequence number in base 36>`.
 * Unique among every store of a bucket (48 random bits per store), short in Redis, and the store
 * finds its own permits by their number instead of keeping their ids.
 *
 * @example
 * ```ts
 * const ids = new PermitIds('AbCdEfGh');
 * ids.next(); // 'AbCdEfGh.1'
 * ids.sequenceOf('AbCdEfGh.a'); // 10
 * ids.sequenceOf('another-store.1'); // undefined
 * ```
 */
export class PermitIds {
  readonly #prefix: string;
  #last = 0;

  constructor(random: string = randomBytes(6).toString('base64url')) {
    this.#prefix = `${random}.`;
  }

  /** A new id. */
  next(): string {
    this.#last += 1;
    return this.#prefix + this.#last.toString(36);
  }

  /** The sequence number of an id this instance made, else undefined. */
  sequenceOf(id: string): number | undefined {
    if (!id.startsWith(this.#prefix)) return undefined;
    const sequence = Number.parseInt(id.slice(this.#prefix.length), 36);
    return Number.isSafeInteger(sequence) && sequence >= 1 && sequence <= this.#last ? sequence : undefined;
  }

  /** The id of sequence number `sequence`. */
  idOf(sequence: number): string {
    return this.#prefix + sequence.toString(36);
  }
}
