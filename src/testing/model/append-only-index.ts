const NONE: readonly never[] = [];

/**
 * A lookup index over the values of a table (a Map) that only grows: the simulator never deletes
 * users or grants, it marks them. The first lookup indexes every value; later lookups index only
 * the values added since, through a live iterator that is never run past the known size (a Map
 * iterator that has finished would not see later additions). A different Map object (a rolled-back
 * transaction restores a copy) or a smaller one rebuilds the index.
 *
 * Values are indexed under the key they had when indexed; use it for fields that never change
 * (ids, emails) and check mutable ones (deleted, revoked) on the records it returns.
 *
 * @example
 * ```ts
 * const byEmail = new AppendOnlyIndex<UserRecord>((user) => user.email.toLowerCase());
 * byEmail.get(tables.users, 'ada@example.com'); // the users with that email, oldest first
 * ```
 */
export class AppendOnlyIndex<V> {
  readonly #keyOf: (value: V) => string;
  readonly #byKey = new Map<string, V[]>();
  #source: Map<string, V> | undefined;
  #iterator: Iterator<V> | undefined;
  #indexed = 0;

  constructor(keyOf: (value: V) => string) {
    this.#keyOf = keyOf;
  }

  /** The values of `source` under `key`, in insertion order. */
  get(source: Map<string, V>, key: string): readonly V[] {
    if (source !== this.#source || source.size < this.#indexed) this.#reset(source);
    while (this.#indexed < source.size) {
      const next = (this.#iterator as Iterator<V>).next();
      if (next.done === true) {
        // Only reachable if entries were deleted and others added; start over from the table.
        this.#reset(source);
        continue;
      }
      this.#indexed += 1;
      const key = this.#keyOf(next.value);
      const list = this.#byKey.get(key);
      if (list === undefined) this.#byKey.set(key, [next.value]);
      else list.push(next.value);
    }
    return this.#byKey.get(key) ?? NONE;
  }

  #reset(source: Map<string, V>): void {
    this.#source = source;
    this.#iterator = source.values();
    this.#indexed = 0;
    this.#byKey.clear();
  }
}
