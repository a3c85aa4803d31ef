import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OwnPermitLedger } from '../../src/redis/own-permit-ledger.js';
import { PermitIds } from '../../src/redis/permit-ids.js';

const WINDOW_MS = 1_000;
const LEASE_MS = 5_000;
const grant = (at: number, background = false) => ({ at, leaseMs: LEASE_MS, windowMs: WINDOW_MS, background });
/** A ledger whose permit ids read p.1, p.2, ... (in the order they are made). */
function ledgerWithIds(): { ledger: OwnPermitLedger; id: (n: number) => string } {
  const ids = new PermitIds('p');
  const made: string[] = [];
  return {
    ledger: new OwnPermitLedger(ids),
    id: (n) => {
      while (made.length < n) made.push(ids.next());
      return made[n - 1] as string;
    },
  };
}

describe('OwnPermitLedger: "every process still knows what it sent in the last window"', () => {
  it('an answered permit counts until a window after its answer', () => {
    const { ledger, id } = ledgerWithIds();
    ledger.granted('b', id(1), grant(0));
    ledger.answered('b', id(1), 200, WINDOW_MS);
    expect(ledger.counted('b', 1_199)).toBe(1);
    expect(ledger.permits('b', 1_199)).toEqual([{ id: id(1), answered: true, until: 1_200, background: false }]);
    expect(ledger.counted('b', 1_200)).toBe(0);
  });

  it('a permit never answered counts until its lease ends, then a window more (as the stores rule)', () => {
    const { ledger, id } = ledgerWithIds();
    ledger.granted('b', id(1), grant(0, true));
    expect(ledger.permits('b', 4_999)).toEqual([{ id: id(1), answered: false, until: 5_000, background: true }]);
    expect(ledger.permits('b', 5_500)).toEqual([{ id: id(1), answered: true, until: 6_000, background: true }]);
    expect(ledger.counted('b', 6_000)).toBe(0);
  });

  it('an answer after the lease ended counts until a window after that answer', () => {
    const { ledger, id } = ledgerWithIds();
    ledger.granted('b', id(1), grant(0));
    ledger.answered('b', id(1), 5_800, WINDOW_MS);
    expect(ledger.permits('b', 6_500)).toEqual([{ id: id(1), answered: true, until: 6_800, background: false }]);
  });

  it('a permit given back (its request never sent) is forgotten at once', () => {
    const { ledger, id } = ledgerWithIds();
    ledger.granted('b', id(1), grant(0));
    ledger.granted('b', id(2), grant(0));
    ledger.remove('b', id(1));
    expect(ledger.permits('b', 10).map((permit) => permit.id)).toEqual([id(2)]);
  });

  it('counts per bucket, leaving out the buckets where nothing counts', () => {
    const { ledger, id } = ledgerWithIds();
    ledger.granted('a', id(1), grant(0));
    ledger.granted('b', id(2), grant(0));
    ledger.granted('b', id(3), grant(0));
    ledger.answered('a', id(1), 100, WINDOW_MS);
    expect([...ledger.countedPerBucket(2_000)]).toEqual([['b', 2]]);
  });

  it('memory follows the permits that still count: buckets no longer used are forgotten as others are used', () => {
    const ledger = new OwnPermitLedger();
    for (let index = 0; index < 1_000; index += 1) ledger.granted(`old-${index}`, ledger.ids.next(), grant(0));
    expect(ledger.bucketCount).toBe(1_000);
    // Every old permit stopped counting at 6 000; each new grant looks at two old buckets.
    for (let index = 0; index < 600; index += 1) ledger.granted('current', ledger.ids.next(), grant(10_000));
    expect(ledger.bucketCount).toBe(1);
  });
});

describe('OwnPermitLedger against a model of one object per permit (fast-check)', () => {
  interface ModelPermit {
    bucket: string;
    id: string;
    leaseEnd: number;
    answeredUntil: number | undefined;
    background: boolean;
    removed: boolean;
  }
  const countEnd = (permit: ModelPermit): number => permit.answeredUntil ?? permit.leaseEnd + WINDOW_MS;
  const counts = (permit: ModelPermit, now: number): boolean => !permit.removed && countEnd(permit) > now;
  const event = fc.oneof(
    fc.record({ kind: fc.constant('grant' as const), bucket: fc.constantFrom('a', 'b'), leaseMs: fc.constantFrom(300, LEASE_MS), background: fc.boolean() }),
    fc.record({ kind: fc.constant('answer' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('check' as const), bucket: fc.constantFrom('a', 'b') }),
  );

  it('counts and lists the same permits at every moment, whatever the order of grants, answers and leases', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat({ max: 1_500 }), event), { maxLength: 120 }), (steps) => {
        const ledger = new OwnPermitLedger();
        const model: ModelPermit[] = [];
        let now = 0;
        for (const [step, happening] of steps) {
          now += step;
          if (happening.kind === 'grant') {
            const id = ledger.ids.next();
            ledger.granted(happening.bucket, id, { at: now, leaseMs: happening.leaseMs, windowMs: WINDOW_MS, background: happening.background });
            model.push({ bucket: happening.bucket, id, leaseEnd: now + happening.leaseMs, answeredUntil: undefined, background: happening.background, removed: false });
          } else if (happening.kind === 'answer' && model.length > 0) {
            const permit = model[happening.pick % model.length] as ModelPermit;
            ledger.answered(permit.bucket, permit.id, now, WINDOW_MS);
            if (counts(permit, now)) permit.answeredUntil = Math.max(permit.answeredUntil ?? 0, now + WINDOW_MS);
          } else if (happening.kind === 'remove' && model.length > 0) {
            const permit = model[happening.pick % model.length] as ModelPermit;
            ledger.remove(permit.bucket, permit.id);
            permit.removed = true;
          } else if (happening.kind === 'check') {
            const expected = model
              .filter((permit) => permit.bucket === happening.bucket && counts(permit, now))
              .map((permit) => {
                const answered = permit.answeredUntil !== undefined || permit.leaseEnd <= now;
                return { id: permit.id, answered, until: answered ? countEnd(permit) : permit.leaseEnd, background: permit.background };
              });
            expect(ledger.permits(happening.bucket, now)).toEqual(expected);
            expect(ledger.counted(happening.bucket, now)).toBe(expected.length);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
