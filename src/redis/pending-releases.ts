/** The releases of one bucket on their way to Redis, sent together in one script call. */
export class ReleaseBatch {
  readonly #ids: string[] = [];
  /** When each response arrived, on the store's clock. */
  readonly #at: number[] = [];
  readonly #settled: Promise<void>;
  #resolve: () => void = () => undefined;
  #reject: (error: unknown) => void = () => undefined;
  /** The window of the latest release (the keys' expiry when the batch goes on its own). */
  windowMs = 0;

  constructor() {
    this.#settled = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Each caller of release() gets the promise and may ignore it: a failed batch must not be an
    // unhandled rejection.
    this.#settled.catch(() => undefined);
  }

  /** Resolves once the batch reached Redis (a release's caller may wait for it). */
  get settled(): Promise<void> {
    return this.#settled;
  }

  get size(): number {
    return this.#ids.length;
  }

  get ids(): readonly string[] {
    return this.#ids;
  }

  add(permitId: string, at: number, windowMs: number): void {
    this.#ids.push(permitId);
    this.#at.push(at);
    this.windowMs = windowMs;
  }

  /** Takes the releases of `other` (sent earlier and not applied) in front of this batch's, settling both together. */
  prepend(other: ReleaseBatch): void {
    this.#ids.unshift(...other.#ids);
    this.#at.unshift(...other.#at);
    this.windowMs ||= other.windowMs;
    this.#settled.then(other.#resolve, other.#reject);
  }

  /**
   * The script argument: '<id> <ms ago> ...', each answer as the time from it until `now` (the
   * moment the script call leaves), whole milliseconds rounded down (the answer a little later).
   */
  argument(now: number): string {
    let text = '';
    for (let index = 0; index < this.#ids.length; index += 1) text += `${text === '' ? '' : ' '}${this.#ids[index] as string} ${Math.max(0, Math.floor(now - (this.#at[index] as number)))}`;
    return text;
  }

  resolve(): void {
    this.#resolve();
  }

  reject(error: unknown): void {
    this.#reject(error);
  }
}

/**
 * The releases of a store waiting to reach Redis, per bucket. A release rides with the bucket's
 * next permit request when one is made before the event loop turns (a call that ends and the next
 * one of the same key); the others go at the next turn, one script call per bucket for all its
 * releases. Either way a permit's answer is dated when its response arrived (see
 * src/redis/release-permits-lua.ts), so the delay changes no count.
 *
 * @example
 * ```ts
 * const pending = new PendingReleases((batches) => flushEach(batches));
 * const settled = pending.add('bucket', 'AbCdEfGh.1', Date.now(), 60_000); // sent by the flush, or...
 * const riding = pending.take('bucket'); // ...taken by the bucket's next permit request
 * ```
 */
export class PendingReleases {
  readonly #batches = new Map<string, ReleaseBatch>();
  readonly #flush: (batches: Map<string, ReleaseBatch>) => void;
  #scheduled = false;

  /** `flush` sends the batches left at the turn of the event loop. */
  constructor(flush: (batches: Map<string, ReleaseBatch>) => void) {
    this.#flush = flush;
  }

  /** Queues a release; resolves once it reached Redis. */
  add(bucket: string, permitId: string, at: number, windowMs: number): Promise<void> {
    let batch = this.#batches.get(bucket);
    if (batch === undefined) {
      batch = new ReleaseBatch();
      this.#batches.set(bucket, batch);
    }
    batch.add(permitId, at, windowMs);
    this.#schedule();
    return batch.settled;
  }

  /** The bucket's waiting releases, for a permit request to carry (settle the batch with its reply), or undefined. */
  take(bucket: string): ReleaseBatch | undefined {
    const batch = this.#batches.get(bucket);
    this.#batches.delete(bucket);
    return batch;
  }

  /** Puts back releases a request could not deliver (it failed, or Redis had lost the data): they go first. */
  putBack(bucket: string, batch: ReleaseBatch): void {
    const newer = this.#batches.get(bucket);
    if (newer !== undefined) newer.prepend(batch);
    else this.#batches.set(bucket, batch);
    this.#schedule();
  }

  /** Takes every waiting batch (to send them now, e.g. before the connection closes). */
  takeAll(): Map<string, ReleaseBatch> {
    const batches = new Map(this.#batches);
    this.#batches.clear();
    return batches;
  }

  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#batches.size > 0) this.#flush(this.takeAll());
    });
  }
}
