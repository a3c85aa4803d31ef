import { describe, expect, it } from 'vitest';
import { OwnPermitLedger } from '../../src/redis/own-permit-ledger.js';

const WINDOW_MS = 1_000;
const LEASE_MS = 5_000;
const grant = (at: number, background = false) => ({ at, leaseMs: LEASE_MS, windowMs: WINDOW_MS, background });

describe('OwnPermitLedger: "every process still knows what it sent in the last window"', () => {
  it('an answered permit counts until a window after its answer', () => {
    const ledger = new OwnPermitLedger();
    ledger.granted('b', 'p1', grant(0));
    ledger.answered('b', 'p1', 200, WINDOW_MS);
    expect(ledger.counted('b', 1_199)).toBe(1);
    expect(ledger.permits('b', 1_199)).toEqual([{ id: 'p1', answered: true, until: 1_200, background: false }]);
    expect(ledger.counted('b', 1_200)).toBe(0);
  });

  it('a permit never answered counts until its lease ends, then a window more (as the stores rule)', () => {
    const ledger = new OwnPermitLedger();
    ledger.granted('b', 'p1', grant(0, true));
    expect(ledger.permits('b', 4_999)).toEqual([{ id: 'p1', answered: false, until: 5_000, background: true }]);
    expect(ledger.permits('b', 5_500)).toEqual([{ id: 'p1', answered: true, until: 6_000, background: true }]);
    expect(ledger.counted('b', 6_000)).toBe(0);
  });

  it('an answer after the lease ended counts until a window after that answer', () => {
    const ledger = new OwnPermitLedger();
    ledger.granted('b', 'p1', grant(0));
    ledger.answered('b', 'p1', 5_800, WINDOW_MS);
    expect(ledger.permits('b', 6_500)).toEqual([{ id: 'p1', answered: true, until: 6_800, background: false }]);
  });

  it('a permit given back (its request never sent) is forgotten at once', () => {
    const ledger = new OwnPermitLedger();
    ledger.granted('b', 'p1', grant(0));
    ledger.granted('b', 'p2', grant(0));
    ledger.remove('b', 'p1');
    expect(ledger.permits('b', 10).map((permit) => permit.id)).toEqual(['p2']);
  });

  it('counts per bucket, leaving out the buckets where nothing counts', () => {
    const ledger = new OwnPermitLedger();
    ledger.granted('a', 'p1', grant(0));
    ledger.granted('b', 'p2', grant(0));
    ledger.granted('b', 'p3', grant(0));
    ledger.answered('a', 'p1', 100, WINDOW_MS);
    expect([...ledger.countedPerBucket(2_000)]).toEqual([['b', 2]]);
  });

  it('memory follows the permits that still count: buckets no longer used are forgotten as others are used', () => {
    const ledger = new OwnPermitLedger();
    for (let index = 0; index < 1_000; index += 1) ledger.granted(`old-${index}`, 'p', grant(0));
    expect(ledger.bucketCount).toBe(1_000);
    // Every old permit stopped counting at 6 000; each new grant looks at two old buckets.
    for (let index = 0; index < 600; index += 1) ledger.granted('current', `p${index}`, grant(10_000));
    expect(ledger.bucketCount).toBe(1);
  });
});
