import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LevelMemory } from '../../src/rate-limit/level-memory.js';

/** The rule of LevelMemory with one map entry per level (its layout until issue 28): the model. */
class MapLevels {
  readonly #until = new Map<number, number>();

  record(level: number, untilMs: number): void {
    if (level <= 0) return;
    if ((this.#until.get(level) ?? 0) < untilMs) this.#until.set(level, untilMs);
    for (const [other, until] of this.#until) if (other < level && until <= untilMs) this.#until.delete(other);
  }

  max(nowMs: number): number {
    let largest = 0;
    for (const [level, until] of this.#until) {
      if (until <= nowMs) this.#until.delete(level);
      else if (level > largest) largest = level;
    }
    return largest;
  }

  nextExpiry(nowMs: number): number {
    let earliest = Number.POSITIVE_INFINITY;
    for (const until of this.#until.values()) if (until > nowMs && until < earliest) earliest = until;
    return earliest;
  }
}

describe('LevelMemory: "the largest level seen within a sliding span of time"', () => {
  it('answers max and nextExpiry as a map of level -> until would, after any records (levels and times of any sign)', () => {
    const op = fc.tuple(fc.constantFrom('record' as const, 'max' as const, 'nextExpiry' as const), fc.integer({ min: -1, max: 6 }), fc.integer({ min: -5, max: 60 }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const levels = new LevelMemory();
        const model = new MapLevels();
        for (const [name, level, at] of ops) {
          if (name === 'record') {
            levels.record(level, at);
            model.record(level, at);
          } else {
            expect(levels[name](at)).toBe(model[name](at));
          }
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('a lower level that ends no later than a higher one is forgotten; one that outlasts it is kept', () => {
    const levels = new LevelMemory();
    levels.record(2, 100);
    levels.record(5, 50);
    expect(levels.max(0)).toBe(5);
    expect(levels.max(50)).toBe(2);
    levels.record(3, 100);
    expect(levels.max(60)).toBe(3);
    expect(levels.nextExpiry(60)).toBe(100);
    expect(levels.max(100)).toBe(0);
  });
});
