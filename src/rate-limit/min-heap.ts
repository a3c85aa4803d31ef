/**
 * A binary min-heap ordered by a numeric key: O(log n) push and pop, O(1) peek.
 *
 * @example
 * ```ts
 * const heap = new MinHeap<{ at: number }>((entry) => entry.at);
 * heap.push({ at: 3 });
 * heap.push({ at: 1 });
 * heap.pop(); // { at: 1 }
 * ```
 */
export class MinHeap<T> {
  readonly #keyOf: (item: T) => number;
  #items: T[] = [];

  /** @param keyOf The number the heap orders by; it must not change while the item is in the heap. */
  constructor(keyOf: (item: T) => number) {
    this.#keyOf = keyOf;
  }

  /** How many items the heap holds. */
  get size(): number {
    return this.#items.length;
  }

  /** The item with the smallest key, without removing it. */
  peek(): T | undefined {
    return this.#items[0];
  }

  /** Adds an item. */
  push(item: T): void {
    this.#items.push(item);
    this.#siftUp(this.#items.length - 1);
  }

  /** Removes and returns the item with the smallest key. */
  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      this.#siftDown(0);
    }
    return top;
  }

  /** Replaces the whole content in O(n) (Floyd's heap construction). */
  replaceAll(items: Iterable<T>): void {
    this.#items = [...items];
    for (let index = Math.floor(this.#items.length / 2) - 1; index >= 0; index -= 1) this.#siftDown(index);
  }

  /**
   * Yields the items in ascending key order without changing the heap; reading the first k costs
   * O(k log k), whatever the heap's size.
   */
  *ascending(): Generator<T, void, undefined> {
    const items = this.#items;
    if (items.length === 0) return;
    // A heap of indices into `items`: the next smallest item is always a child of one already yielded.
    const frontier = new MinHeap<number>((index) => this.#keyAt(index));
    frontier.push(0);
    for (let index = frontier.pop(); index !== undefined; index = frontier.pop()) {
      const item = items[index];
      if (item !== undefined) yield item;
      for (const child of [2 * index + 1, 2 * index + 2]) if (child < items.length) frontier.push(child);
    }
  }

  #keyAt(index: number): number {
    const item = this.#items[index];
    return item === undefined ? Number.POSITIVE_INFINITY : this.#keyOf(item);
  }

  #swap(a: number, b: number): void {
    const items = this.#items;
    const itemA = items[a];
    const itemB = items[b];
    if (itemA === undefined || itemB === undefined) return;
    items[a] = itemB;
    items[b] = itemA;
  }

  #siftUp(start: number): void {
    let index = start;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.#keyAt(parent) <= this.#keyAt(index)) return;
      this.#swap(parent, index);
      index = parent;
    }
  }

  #siftDown(start: number): void {
    const length = this.#items.length;
    let index = start;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let smallest = index;
      if (left < length && this.#keyAt(left) < this.#keyAt(smallest)) smallest = left;
      if (right < length && this.#keyAt(right) < this.#keyAt(smallest)) smallest = right;
      if (smallest === index) return;
      this.#swap(index, smallest);
      index = smallest;
    }
  }
}
