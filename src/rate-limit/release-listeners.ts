/**
 * The `onRelease` subscriptions of a permit store, per bucket.
 *
 * @example
 * ```ts
 * const listeners = new ReleaseListeners();
 * const unsubscribe = listeners.add('bucket', () => wakeUp());
 * listeners.notify('bucket'); // calls wakeUp()
 * unsubscribe();
 * ```
 */
export class ReleaseListeners {
  readonly #byBucket = new Map<string, Set<(givenBack: boolean) => void>>();

  /** Calls `listener` on every later {@link ReleaseListeners.notify} of `bucket`; returns the unsubscribe function. */
  add(bucket: string, listener: (givenBack?: boolean) => void): () => void {
    let listeners = this.#byBucket.get(bucket);
    if (listeners === undefined) {
      listeners = new Set();
      this.#byBucket.set(bucket, listeners);
    }
    // A wrapper per subscription, so subscribing the same function twice needs two unsubscribes.
    const subscription = (givenBack: boolean): void => listener(givenBack);
    listeners.add(subscription);
    return () => {
      const current = this.#byBucket.get(bucket);
      if (current === undefined) return;
      current.delete(subscription);
      if (current.size === 0) this.#byBucket.delete(bucket);
    };
  }

  /**
   * Calls the listeners of `bucket` subscribed at this moment (one may unsubscribe another);
   * `givenBack` when the permit was given back rather than released.
   */
  notify(bucket: string, givenBack = false): void {
    const listeners = this.#byBucket.get(bucket);
    if (listeners === undefined) return;
    for (const listener of [...listeners]) listener(givenBack);
  }
}
