import { PermitIds } from './permit-ids.js';

/** One permit a store granted that still counts, as a restore writes it back to Redis. */
export interface OwnPermit {
  readonly id: string;
  /** False while in flight (`until` is its lease end), true once answered (`until` is answer + window). */
  readonly answered: boolean;
  /** Epoch ms on the store's clock. */
  readonly until: number;
  readonly background: boolean;
}

/** `codes[i]`: the permit's sequence number x 4, plus these flags. */
const ANSWERED = 1;
const BACKGROUND = 2;
/** Entries passed at the front before the arrays are cut down to what may still count. */
const COMPACT_AFTER = 64;

/**
 * The permits of one bucket in grant order, two numbers each: `codes` (sequence number and flags)
 * and `until` (the lease end while in flight, the end of its count once answered; NaN once given
 * back). Entries before `head` count no more.
 */
interface BucketPermits {
  codes: number[];
  until: number[];
  head: number;
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
 * than the server counted the request). Memory follows the permits that still count: two numbers
 * per permit (the ids are the store's own, {@link PermitIds}, found again by their number), and a
 * bucket is dropped once nothing in it counts.
 *
 * @example
 * ```ts
 * const ledger = new OwnPermitLedger();
 * const id = ledger.ids.next();
 * ledger.granted('bucket', id, { at: 0, leaseMs: 30_000, windowMs: 60_000, background: false });
 * ledger.answered('bucket', id, 100, 60_000);
 * ledger.counted('bucket', 50_000); // 1 (counts until 60_100)
 * ```
 */
export class OwnPermitLedger {
  /** The ids of the permits this ledger keeps: permits of other ids are not kept. */
  readonly ids: PermitIds;
  readonly #buckets = new Map<string, BucketPermits>();

  constructor(ids: PermitIds = new PermitIds()) {
    this.ids = ids;
  }

  /** How many buckets hold permits that may still count (for memory checks: the others are forgotten). */
  get bucketCount(): number {
    return this.#buckets.size;
  }

  /** Records a permit granted for a request asked for at `at`. */
  granted(bucket: string, permitId: string, grant: { at: number; leaseMs: number; windowMs: number; background: boolean }): void {
    this.#sweep(grant.at);
    const sequence = this.ids.sequenceOf(permitId);
    if (sequence === undefined) return;
    let permits = this.#buckets.get(bucket);
    if (permits === undefined) {
      permits = { codes: [], until: [], head: 0, windowMs: grant.windowMs };
      this.#buckets.set(bucket, permits);
    }
    permits.windowMs = grant.windowMs;
    permits.codes.push(sequence * 4 + (grant.background ? BACKGROUND : 0));
    permits.until.push(grant.at + grant.leaseMs);
  }

  /** Records the answer of a permit's request at `at`: it counts until `at + windowMs`. */
  answered(bucket: string, permitId: string, at: number, windowMs: number): void {
    const permits = this.#settled(bucket, at);
    const index = permits === undefined ? -1 : this.#indexOf(permits, permitId);
    // A permit that stopped counting before this answer is gone (as Redis purges it).
    if (permits === undefined || index === -1 || !countsAt(permits, index, at)) return;
    const code = permits.codes[index] as number;
    const until = permits.until[index] as number;
    const countedUntil = at + windowMs;
    // In flight: answered now (after its lease ended too: the request may have arrived up to now,
    // as the stores rule). Answered already: a later answer only lengthens its count.
    if ((code & ANSWERED) === 0) {
      permits.codes[index] = code | ANSWERED;
      permits.until[index] = countedUntil;
    } else if (until < countedUntil) {
      permits.until[index] = countedUntil;
    }
  }

  /** Forgets a permit whose request was never sent: it never counted at the server. */
  remove(bucket: string, permitId: string): void {
    const permits = this.#buckets.get(bucket);
    const index = permits === undefined ? -1 : this.#indexOf(permits, permitId);
    if (permits !== undefined && index !== -1) permits.until[index] = Number.NaN;
  }

  /** Permits of `bucket` that count at `now`. */
  counted(bucket: string, now: number): number {
    const permits = this.#settled(bucket, now);
    if (permits === undefined) return 0;
    let count = 0;
    for (let index = permits.head; index < permits.codes.length; index += 1) if (countsAt(permits, index, now)) count += 1;
    return count;
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
    const list: OwnPermit[] = [];
    for (let index = permits.head; index < permits.codes.length; index += 1) {
      if (!countsAt(permits, index, now)) continue;
      const code = permits.codes[index] as number;
      const until = permits.until[index] as number;
      const id = this.ids.idOf(Math.floor(code / 4));
      const background = (code & BACKGROUND) !== 0;
      // A lease that ended unreleased counts as answered at its end.
      if ((code & ANSWERED) !== 0 || until <= now) list.push({ id, answered: true, until: (code & ANSWERED) !== 0 ? until : until + permits.windowMs, background });
      else list.push({ id, answered: false, until, background });
    }
    return list;
  }

  /** The entry of `permitId` in `permits` (binary search: sequence numbers grow in grant order), or -1. */
  #indexOf(permits: BucketPermits, permitId: string): number {
    const sequence = this.ids.sequenceOf(permitId);
    if (sequence === undefined) return -1;
    const code = sequence * 4;
    let low = permits.head;
    let high = permits.codes.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = permits.codes[middle] as number;
      if (found < code) low = middle + 1;
      else if (found >= code + 4) high = middle - 1;
      else return middle;
    }
    return -1;
  }

  /** The bucket as of `now` (the entries at the front that count no more dropped), or undefined when nothing counts. */
  #settled(bucket: string, now: number): BucketPermits | undefined {
    const permits = this.#buckets.get(bucket);
    if (permits === undefined) return undefined;
    while (permits.head < permits.codes.length && !countsAt(permits, permits.head, now)) permits.head += 1;
    if (permits.head === permits.codes.length) {
      this.#buckets.delete(bucket);
      return undefined;
    }
    if (permits.head >= COMPACT_AFTER && permits.head * 2 >= permits.codes.length) {
      permits.codes.splice(0, permits.head);
      permits.until.splice(0, permits.head);
      permits.head = 0;
    }
    return permits;
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

/** True when the entry at `index` counts at `now`: answered, until its count ends; in flight, until its lease end + window. */
function countsAt(permits: BucketPermits, index: number, now: number): boolean {
  const until = permits.until[index] as number;
  if (Number.isNaN(until)) return false;
  const answered = ((permits.codes[index] as number) & ANSWERED) !== 0;
  return (answered ? until : until + permits.windowMs) > now;
}
