/** Record states: a permit in flight or answered, of the background lane or not; GONE once it counts no more. */
const GONE = 0;
const IN_FLIGHT = 1;
const ANSWERED = 2;
const BACKGROUND = 4;
/** Numbers per record: when sent, its time (lease end in flight, answer once answered), its state. */
const STRIDE = 3;
/** Gone records at the front are dropped once they are this many and half of those held. */
const COMPACT_FROM = 16;
/** Room made when an array is full: a quarter more than it holds (little unused, few copies). */
const GROWTH = 1.25;
/** The least room an array is given, in entries. */
const MIN_ROOM = 4;

/**
 * The permits one bucket of the memory store counts, laid out for a process holding thousands of
 * busy buckets: three numbers per permit in one array (in the order granted), and the answered
 * ones' sequence numbers in one more, by answer time. No object, map entry or string per permit:
 * about 32 bytes each, where a map and a heap entry per permit in five timed sets took 0.7-0.8 KB.
 * Both arrays are plain arrays of numbers (held unboxed by the engine, within its heap) sized by
 * this class: they grow by a quarter and shrink as the permits drain.
 *
 * A permit is named by its sequence number within the bucket, so finding it is an index. Both
 * arrays are consumed from the front (the oldest grant, the earliest answer), so memory follows
 * the permits that still count.
 *
 * What the permit rule asks of a bucket, each in O(1) in the usual order of events (answers come
 * in time order, the clock does not go back) and exact in any order:
 * - the counts: in flight, answered, background, interactive in flight;
 * - the k-th earliest answer, the earliest lease end, the k-th earliest background "latest
 *   possible answer" (lease end in flight, answer once answered), the oldest send;
 * - leases that ended become answered at their end; answers a window old stop counting.
 *
 * @example
 * ```ts
 * const permits = new CountedPermits();
 * const seq = permits.grant(1_000, 31_000, false);
 * permits.answer(seq, 1_050);
 * permits.settle(61_050, 60_000); // its count ended
 * permits.counted; // 0
 * ```
 */
export class CountedPermits {
  /** `STRIDE` numbers per permit, in the order granted, up to `#end`; permit `seq` at `STRIDE * (seq - #firstSeq)`. */
  #records: number[] = [];
  #end = 0;
  /** The first record that may still count, in records (those before it are gone). */
  #head = 0;
  /** The sequence number of `#records`' first record. */
  #firstSeq = 0;
  /** Sequence numbers of the answered permits still counted, by answer time, in `[#answeredHead, #answeredEnd)`. */
  #answered: number[] = [];
  #answeredHead = 0;
  #answeredEnd = 0;
  #inFlight = 0;
  #background = 0;
  #backgroundInFlight = 0;
  /** True once a permit was granted with an earlier send time than one before it (the clock went back). */
  #sentOutOfOrder = false;
  #latestSent = Number.NEGATIVE_INFINITY;
  /** No lease of a permit in flight ends before this (exact after each look, lower afterwards). */
  #leasesEndFrom = Number.POSITIVE_INFINITY;

  /** Permits in flight or answered less than a window ago. */
  get counted(): number {
    return this.#inFlight + this.answeredCount;
  }

  /** Permits in flight (not answered, lease not ended). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Answered permits still counted. */
  get answeredCount(): number {
    return this.#answeredEnd - this.#answeredHead;
  }

  /** Counted permits of the background lane. */
  get background(): number {
    return this.#background;
  }

  /** Counted permits of the interactive lane. */
  get interactive(): number {
    return this.counted - this.#background;
  }

  /** Interactive permits in flight. */
  get interactiveInFlight(): number {
    return this.#inFlight - this.#backgroundInFlight;
  }

  /** Counts a new permit sent at `sentAt`, in flight until `leaseEnd`; returns its sequence number. */
  grant(sentAt: number, leaseEnd: number, background: boolean): number {
    if (this.#end + STRIDE > this.#records.length) this.#resizeRecords(1);
    const seq = this.#firstSeq + this.#end / STRIDE;
    const records = this.#records;
    records[this.#end] = sentAt;
    records[this.#end + 1] = leaseEnd;
    records[this.#end + 2] = background ? IN_FLIGHT | BACKGROUND : IN_FLIGHT;
    this.#end += STRIDE;
    if (sentAt < this.#latestSent) this.#sentOutOfOrder = true;
    else this.#latestSent = sentAt;
    this.#inFlight += 1;
    if (background) {
      this.#background += 1;
      this.#backgroundInFlight += 1;
    }
    if (leaseEnd < this.#leasesEndFrom) this.#leasesEndFrom = leaseEnd;
    return seq;
  }

  /** Marks permit `seq`, in flight, as answered at `at`: it counts a window more. False when it is not in flight. */
  answer(seq: number, at: number): boolean {
    const index = this.#indexOf(seq);
    if (index < 0 || (this.#stateAt(index) & IN_FLIGHT) === 0) return false;
    this.#land(index, at);
    return true;
  }

  /**
   * Moves the answer of permit `seq`, already answered (at its lease's end, or released before),
   * to `at` when that is later: it counts until a window after `at`. False when nothing changed.
   */
  answerAgain(seq: number, at: number): boolean {
    const index = this.#indexOf(seq);
    if (index < 0 || (this.#stateAt(index) & ANSWERED) === 0 || !(this.#timeAt(index) < at)) return false;
    const position = this.#answeredPosition(seq, index);
    this.#answered.copyWithin(position, position + 1, this.#answeredEnd);
    this.#answeredEnd -= 1;
    this.#records[index + 1] = at;
    this.#insertAnswered(seq, at);
    return true;
  }

  /** Forgets permit `seq`, in flight, as if never granted (its request never left). False when it is not in flight. */
  giveBack(seq: number): boolean {
    const index = this.#indexOf(seq);
    if (index < 0 || (this.#stateAt(index) & IN_FLIGHT) === 0) return false;
    this.#leaveFlight(index);
    this.#drop(index);
    return true;
  }

  /**
   * Brings the counts to `now`: permits whose lease ended unanswered count as answered at their
   * lease's end, and answers `windowMs` old or older stop counting.
   */
  settle(now: number, windowMs: number): void {
    if (now >= this.#leasesEndFrom) this.#endLeases(now);
    const countedSince = now - windowMs;
    while (this.#answeredHead < this.#answeredEnd) {
      const index = this.#indexOf(this.#answered[this.#answeredHead] as number);
      if (this.#timeAt(index) > countedSince) break;
      this.#answeredHead += 1;
      this.#drop(index);
    }
    const head = this.#answeredHead;
    const live = this.#answeredEnd - head;
    if (live === 0) {
      this.#answeredHead = 0;
      this.#answeredEnd = 0;
      if (this.#answered.length > MIN_ROOM) this.#answered = [];
    } else if (head >= COMPACT_FROM && 2 * head >= this.#answeredEnd) {
      this.#answered = resized(this.#answered, head, this.#answeredEnd, this.#answered.length > 4 * live ? roomFor(live) : this.#answered.length);
      this.#answeredHead = 0;
      this.#answeredEnd = live;
    }
  }

  /** The `rank`-th earliest answer time of the answered permits (1 = the earliest), or undefined. */
  nthEarliestAnswer(rank: number): number | undefined {
    if (rank < 1 || rank > this.answeredCount) return undefined;
    return this.#timeAt(this.#indexOf(this.#answered[this.#answeredHead + rank - 1] as number));
  }

  /** The earliest lease end of the permits in flight, or undefined when none is. */
  earliestLeaseEnd(): number | undefined {
    if (this.#inFlight === 0) return undefined;
    let earliest = Number.POSITIVE_INFINITY;
    const records = this.#records;
    for (let index = this.#head * STRIDE; index < this.#end; index += STRIDE) {
      if (((records[index + 2] as number) & IN_FLIGHT) !== 0) earliest = Math.min(earliest, records[index + 1] as number);
    }
    this.#leasesEndFrom = earliest;
    return earliest;
  }

  /**
   * The `rank`-th earliest "latest possible answer" of the background permits (lease end while in
   * flight, answer once answered), or undefined when fewer are counted.
   */
  nthEarliestBackground(rank: number): number | undefined {
    if (rank < 1 || rank > this.#background) return undefined;
    const leases: number[] = [];
    if (this.#backgroundInFlight > 0) {
      const records = this.#records;
      for (let index = this.#head * STRIDE; index < this.#end; index += STRIDE) {
        if (records[index + 2] === (IN_FLIGHT | BACKGROUND)) leases.push(records[index + 1] as number);
      }
      leases.sort((a, b) => a - b);
    }
    // Merge the lease ends with the background answers (the answered index is in time order).
    let lease = 0;
    let position = this.#answeredHead;
    for (let seen = 1; ; seen += 1) {
      let answerAt = Number.POSITIVE_INFINITY;
      for (; position < this.#answeredEnd; position += 1) {
        const index = this.#indexOf(this.#answered[position] as number);
        if ((this.#stateAt(index) & BACKGROUND) !== 0) {
          answerAt = this.#timeAt(index);
          break;
        }
      }
      const leaseEnd = leases[lease] ?? Number.POSITIVE_INFINITY;
      const next = Math.min(answerAt, leaseEnd);
      if (seen === rank || next === Number.POSITIVE_INFINITY) return Number.isFinite(next) ? next : undefined;
      if (leaseEnd <= answerAt) lease += 1;
      else position += 1;
    }
  }

  /** When the oldest counted permit was sent, or undefined when none counts. */
  oldestSent(): number | undefined {
    if (this.counted === 0) return undefined;
    const records = this.#records;
    // Grant order is send order unless the clock went back; the head record always counts.
    if (!this.#sentOutOfOrder) return records[this.#head * STRIDE];
    let oldest = Number.POSITIVE_INFINITY;
    for (let index = this.#head * STRIDE; index < this.#end; index += STRIDE) {
      if (records[index + 2] !== GONE) oldest = Math.min(oldest, records[index] as number);
    }
    return oldest;
  }

  /** The array index of permit `seq`'s record, or -1 when it counts no more (or never did). */
  #indexOf(seq: number): number {
    const record = seq - this.#firstSeq;
    if (!Number.isInteger(record) || record < this.#head || record * STRIDE >= this.#end) return -1;
    const index = record * STRIDE;
    return this.#records[index + 2] === GONE ? -1 : index;
  }

  #stateAt(index: number): number {
    return this.#records[index + 2] as number;
  }

  #timeAt(index: number): number {
    return this.#records[index + 1] as number;
  }

  /** Turns the permits whose lease ended by `now` into answered ones, answered at their lease's end. */
  #endLeases(now: number): void {
    let earliest = Number.POSITIVE_INFINITY;
    for (let index = this.#head * STRIDE; index < this.#end; index += STRIDE) {
      if ((this.#stateAt(index) & IN_FLIGHT) === 0) continue;
      const leaseEnd = this.#timeAt(index);
      if (leaseEnd <= now) this.#land(index, leaseEnd);
      else earliest = Math.min(earliest, leaseEnd);
    }
    this.#leasesEndFrom = earliest;
  }

  /** An in-flight record becomes answered at `at`. */
  #land(index: number, at: number): void {
    this.#leaveFlight(index);
    this.#records[index + 1] = at;
    this.#records[index + 2] = (this.#stateAt(index) & BACKGROUND) | ANSWERED;
    this.#insertAnswered(this.#firstSeq + index / STRIDE, at);
  }

  #leaveFlight(index: number): void {
    this.#inFlight -= 1;
    if ((this.#stateAt(index) & BACKGROUND) !== 0) this.#backgroundInFlight -= 1;
  }

  /** Puts `seq` (answered at `at`) in the answered index, after those answered at or before `at`. */
  #insertAnswered(seq: number, at: number): void {
    if (this.#answeredEnd === this.#answered.length) {
      const live = this.#answeredEnd - this.#answeredHead;
      this.#answered = resized(this.#answered, this.#answeredHead, this.#answeredEnd, roomFor(live + 1));
      this.#answeredHead = 0;
      this.#answeredEnd = live;
    }
    const answered = this.#answered;
    let position = this.#answeredEnd;
    // Answers usually come in time order: the common place is the end.
    if (position > this.#answeredHead && this.#timeAt(this.#indexOf(answered[position - 1] as number)) > at) {
      let low = this.#answeredHead;
      let high = position;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (this.#timeAt(this.#indexOf(answered[middle] as number)) <= at) low = middle + 1;
        else high = middle;
      }
      position = low;
      answered.copyWithin(position + 1, position, this.#answeredEnd);
    }
    answered[position] = seq;
    this.#answeredEnd += 1;
  }

  /** Where `seq` (whose record is at `index`) stands in the answered index. */
  #answeredPosition(seq: number, index: number): number {
    const answered = this.#answered;
    const at = this.#timeAt(index);
    let low = this.#answeredHead;
    let high = this.#answeredEnd;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#timeAt(this.#indexOf(answered[middle] as number)) < at) low = middle + 1;
      else high = middle;
    }
    while (answered[low] !== seq) low += 1;
    return low;
  }

  /** The record at `index` counts no more. */
  #drop(index: number): void {
    if ((this.#stateAt(index) & BACKGROUND) !== 0) this.#background -= 1;
    const records = this.#records;
    records[index + 2] = GONE;
    let head = this.#head;
    while (head * STRIDE < this.#end && records[head * STRIDE + 2] === GONE) head += 1;
    this.#head = head;
    if (head * STRIDE === this.#end) {
      // Nothing counts: start afresh (the sequence goes on, so earlier ids stay unknown).
      this.#firstSeq += head;
      this.#head = 0;
      this.#end = 0;
      if (records.length > MIN_ROOM * STRIDE) this.#records = [];
      this.#sentOutOfOrder = false;
      this.#latestSent = Number.NEGATIVE_INFINITY;
      this.#leasesEndFrom = Number.POSITIVE_INFINITY;
    } else if (head >= COMPACT_FROM && 2 * head * STRIDE >= this.#end) {
      this.#resizeRecords(0);
    }
  }

  /** Moves the records that may count to the front of an array with room for `more` records besides. */
  #resizeRecords(more: number): void {
    const live = this.#end - this.#head * STRIDE;
    const needed = live + more * STRIDE;
    const room = this.#records.length >= needed && this.#records.length <= 4 * needed ? this.#records.length : STRIDE * roomFor(needed / STRIDE);
    this.#records = resized(this.#records, this.#head * STRIDE, this.#end, room);
    this.#firstSeq += this.#head;
    this.#head = 0;
    this.#end = live;
  }
}

/** The room for `entries`: a quarter more, at least `MIN_ROOM`. */
function roomFor(entries: number): number {
  return Math.max(MIN_ROOM, Math.ceil(entries * GROWTH));
}

/** `array[from..to)` at the front of an array of `room` slots (the rest unused). */
function resized(array: number[], from: number, to: number, room: number): number[] {
  const next = new Array<number>(room);
  for (let index = from; index < to; index += 1) next[index - from] = array[index] as number;
  return next;
}
