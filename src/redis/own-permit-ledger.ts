import { TimedSet } from '../rate-limit/timed-set.js';

/** One permit a store granted that still counts, as a restore writes it back to Redis. */
export interface OwnPermit {
  readonly id: string;
  /** False while in flight (`until` is its lease end), true once answered (`until` is answer + window). */
  readonly answered: boolean;
  /** Epoch ms on the store's clock. */
  readonly until: number;
  readonly background: boolean;
}

/** The permits of one bucket that still count. */
interface BucketPermits {
  /** Not yet released, timed by the lease end. */
  readonly inFlight: TimedSet;
  /** Released (or lease ended), timed by when they stop counting. */
  readonly answered: TimedSet;
  readonly background: Set<string>;
  /** The window of the latest permit: a lease that ends unreleased counts this long more. */
  windowMs: number;
}

/** Other buckets settled per call, so that the permits of buckets no longer used are dropped too. */
const SWEEPS_PER_CALL = 2;

/**
 * What one store instance sent in the last window: every permit it granted, per bucket, until it
 * stops counting under the permit rule (in flight until its lease ends, then a window more;
 * answered until a window after the answer). Redis may lose its data (a restart without
 * persistence, a failover); this is how a process still knows its share of the lost count.
 *
 * Times are read on the store's clock when the store learns them: a lease from when the permit was
 * asked for (no later than Redis started it), an answer from when the response arrived (no earlier
 * than the server counted the request). Memory follows the permits that still count.
 *
 * @example
 * ```ts
 * const ledger = new OwnPermitLedger();
 * ledger.granted('bucket', 'p1', { at: 0, leaseMs: 30_000, windowMs: 60_000, background: false });
 * ledger.answered('bucket', 'p1', 100, 60_000);
 * ledger.counted('bucket', 50_000); // 1 (counts until 60_100)
 * ```
 */
export class OwnPermitLedger {
  readonly #buckets = new Map<string, BucketPermits>();

  /** How many buckets hold permits that may still count (for memory checks: the others are forgotten). */
  get bucketCount(): number {
    return this.#buckets.size;
  }

  /** Records a permit granted for a request asked for at `at`. */
  granted(bucket: string, permitId: string, grant: { at: number; leaseMs: number; windowMs: number; background: boolean }): void {
    this.#sweep(grant.at);
    let permits = this.#buckets.get(bucket);
    if (permits === undefined) {
      permits = { inFlight: new TimedSet(), answered: new TimedSet(), background: new Set(), windowMs: grant.windowMs };
      this.#buckets.set(bucket, permits);
    }
    permits.windowMs = grant.windowMs;
    permits.inFlight.set(permitId, grant.at + grant.leaseMs);
    if (grant.background) permits.background.add(permitId);
  }

  /** Records the answer of a permit's request at `at`: it counts until `at + windowMs`. */
  answered(bucket: string, permitId: string, at: number, windowMs: number): void {
    const permits = this.#settled(bucket, at);
    if (permits === undefined) return;
    const countedUntil = at + windowMs;
    // An answer after the lease ended: the request may have arrived up to now (as the stores rule).
    if (permits.inFlight.delete(permitId) || (permits.answered.get(permitId) ?? Number.POSITIVE_INFINITY) < countedUntil) permits.answered.set(permitId, countedUntil);
  }

  /** Forgets a permit whose request was never sent: it never counted at the server. */
  remove(bucket: string, permitId: string): void {
    const permits = this.#buckets.get(bucket);
    if (permits === undefined) return;
    permits.inFlight.delete(permitId);
    permits.answered.delete(permitId);
    permits.background.delete(permitId);
  }

  /** Permits of `bucket` that count at `now`. */
  counted(bucket: string, now: number): number {
    const permits = this.#settled(bucket, now);
    return permits === undefined ? 0 : permits.inFlight.size + permits.answered.size;
  }

  /** Permits that count at `now`, per bucket (the buckets holding none left out). */
  countedPerBucket(now: number): Map<string, number> {
    const counts = new Map<string, number>();
    for (const bucket of [...this.#buckets.keys()]) {
      const count = this.counted(bucket, now);
      if (count > 0) counts.set(bucket, count);
    }
    return counts;
  }

  /** The permits of `bucket` that count at `now`. */
  permits(bucket: string, now: number): OwnPermit[] {
    const permits = this.#settled(bucket, now);
    if (permits === undefined) return [];
    const list = (set: TimedSet, answered: boolean): OwnPermit[] => Array.from(set.entries(), ([id, until]) => ({ id, answered, until, background: permits.background.has(id) }));
    return [...list(permits.inFlight, false), ...list(permits.answered, true)];
  }

  /** The bucket as of `now` (ended leases answered at their end, ended counts dropped), or undefined when nothing counts. */
  #settled(bucket: string, now: number): BucketPermits | undefined {
    const permits = this.#buckets.get(bucket);
    if (permits === undefined) return undefined;
    for (const lease of permits.inFlight.takeUntil(now)) permits.answered.set(lease.id, lease.at + permits.windowMs);
    for (const ended of permits.answered.takeUntil(now)) permits.background.delete(ended.id);
    if (permits.inFlight.size + permits.answered.size > 0) return permits;
    this.#buckets.delete(bucket);
    return undefined;
  }

  /** Settles the longest-untouched buckets, moving those still in use to the end of the map. */
  #sweep(now: number): void {
    for (let swept = 0; swept < SWEEPS_PER_CALL && this.#buckets.size > 1; swept += 1) {
      const bucket = this.#buckets.keys().next().value as string;
      const permits = this.#settled(bucket, now);
      if (permits === undefined) continue;
      this.#buckets.delete(bucket);
      this.#buckets.set(bucket, permits);
    }
  }
}
