import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MinHeap } from '../../src/rate-limit/min-heap.js';
import { TimedSet } from '../../src/rate-limit/timed-set.js';

type Operation =
  | { kind: 'set'; id: string; at: number }
  | { kind: 'delete'; id: string }
  | { kind: 'takeUntil'; now: number }
  | { kind: 'nthEarliest'; rank: number };

const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const times = fc.integer({ min: 0, max: 50 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), id: ids, at: times }),
  fc.record({ kind: fc.constant('delete' as const), id: ids }),
  fc.record({ kind: fc.constant('takeUntil' as const), now: times }),
  fc.record({ kind: fc.constant('nthEarliest' as const), rank: fc.integer({ min: 0, max: 7 }) }),
);

describe('MinHeap', () => {
  it('pops in ascending key order and lists items in ascending order without changing itself', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -100, max: 100 })), (keys) => {
        const heap = new MinHeap<number>((key) => key);
        for (const key of keys) heap.push(key);
        const sorted = [...keys].sort((a, b) => a - b);
        expect([...heap.ascending()]).toEqual(sorted);
        expect(heap.size).toBe(keys.length);
        const popped: number[] = [];
        for (let key = heap.pop(); key !== undefined; key = heap.pop()) popped.push(key);
        expect(popped).toEqual(sorted);
      }),
    );
  });

  it('replaceAll builds a valid heap', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), (keys) => {
        const heap = new MinHeap<number>((key) => key);
        heap.replaceAll(keys);
        expect([...heap.ascending()]).toEqual([...keys].sort((a, b) => a - b));
      }),
    );
  });
});

describe('TimedSet', () => {
  it('behaves like a map of id -> time sorted on demand, whatever the order of operations', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 200 }), (operations) => {
        const set = new TimedSet();
        const model = new Map<string, number>();
        for (const op of operations) {
          if (op.kind === 'set') {
            set.set(op.id, op.at);
            model.set(op.id, op.at);
          } else if (op.kind === 'delete') {
            expect(set.delete(op.id)).toBe(model.delete(op.id));
          } else if (op.kind === 'takeUntil') {
            const due = [...model].filter(([, at]) => at <= op.now).map(([, at]) => at).sort((a, b) => a - b);
            const taken = set.takeUntil(op.now);
            expect(taken.map((entry) => entry.at)).toEqual(due);
            for (const entry of taken) {
              expect(model.get(entry.id)).toBe(entry.at);
              model.delete(entry.id);
            }
          } else {
            const sorted = [...model.values()].sort((a, b) => a - b);
            expect(set.nthEarliest(op.rank)).toBe(op.rank >= 1 ? sorted[op.rank - 1] : undefined);
          }
          expect(set.size).toBe(model.size);
        }
      }),
      { numRuns: 300 },
    );
  });
});
