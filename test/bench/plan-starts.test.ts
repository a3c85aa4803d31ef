import { describe, expect, it } from 'vitest';
import { estimateCellMs, matrixCells } from '../../bench/tenants/plan.js';
import { parseStarts, startOffsets } from '../../bench/tenants/starts.js';

const selection = { legs: ['memory'], keys: [100], budgets: [20], loads: ['burst', 'light'], builds: [{ dist: 'dist', label: 'now' }], delayMs: 2 };

describe('bench:tenants --starts: when the keys of a paced cell start their jobs', () => {
  it('by default every cell starts its keys together', () => {
    expect(matrixCells(selection).map((cell) => cell.start ?? 'together')).toEqual(['together', 'together']);
  });

  it('spread is a cell of its own beside together, for paced cells only: a burst cell measures a burst', () => {
    const cells = matrixCells({ ...selection, starts: ['together', 'spread'] });
    expect(cells.map((cell) => `${cell.load} ${cell.start ?? 'together'}`)).toEqual(['burst together', 'light together', 'light spread']);
  });

  it("a spread cell's estimate counts the window its last key starts in", () => {
    const [together, spread] = matrixCells({ ...selection, loads: ['light'], starts: ['together', 'spread'] });
    if (together === undefined || spread === undefined) throw new Error('two cells expected');
    expect(estimateCellMs(spread) - estimateCellMs(together)).toBe(spread.windowMs);
  });

  it('spread starts key i at i / keys of a window; together starts every key at once', () => {
    expect(startOffsets('spread', 4, 1_000)).toEqual([0, 250, 500, 750]);
    expect(startOffsets('together', 4, 1_000)).toBeUndefined();
    expect(startOffsets(undefined, 4, 1_000)).toBeUndefined();
  });

  it('--starts names only together and spread, and at least one', () => {
    expect(parseStarts('together, spread')).toEqual(['together', 'spread']);
    expect(() => parseStarts('together,staggered')).toThrow('Failed to read --starts: staggered (known: together, spread).');
    expect(() => parseStarts(',')).toThrow('Failed to read --starts: none given (known: together, spread).');
  });
});
