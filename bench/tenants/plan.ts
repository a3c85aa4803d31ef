import type { CellSpec } from './cell.js';
import { startsOfLoad, type StartName } from './starts.js';

/**
 * The offered loads of paced cells: every key's budget per window, all keys together, in calls per
 * second (the window follows: keys x budget / rate, kept within 1-60 s, so the actual load of a
 * cell with few keys is lower; each cell prints its own). `burst` is the burst cell: each key's
 * full budget at once, over a window long enough to read the heap while every request counts.
 */
export const LOADS: Readonly<Record<string, number | 'burst'>> = { burst: 'burst', light: 2_000, heavy: 8_000 };

/** What a matrix covers. */
export interface MatrixSelection {
  legs: readonly string[];
  keys: readonly number[];
  budgets: readonly number[];
  loads: readonly string[];
  /** When the keys of paced cells start (burst cells start together). @default ['together'] */
  starts?: readonly StartName[];
  /** The builds to run, each a dist/ folder with its label. */
  builds: ReadonlyArray<{ dist: string; label: string }>;
  delayMs: number;
}

const MIN_WINDOW_MS = 1_000;
const MAX_WINDOW_MS = 60_000;
/** The slowest rate a burst cell plans for (calls per second) when it sizes its window. */
const SLOWEST_BURST_RATE = 1_000;
/** The longest window of a burst cell (the 1,000 x 200 cell: 205 s; c07ece8 on a busy 2-core VM made 500 calls/s). */
const MAX_BURST_WINDOW_MS = 240_000;

/** The cells of a selection, in the order they run. */
export function matrixCells(selection: MatrixSelection): CellSpec[] {
  const cells: CellSpec[] = [];
  for (const build of selection.builds) {
    for (const leg of selection.legs) {
      for (const load of selection.loads) {
        for (const start of startsOfLoad(LOADS[load] === 'burst', selection.starts ?? ['together'])) {
          for (const keys of selection.keys) {
            for (const budget of selection.budgets) cells.push({ ...cellSpec(leg, build, keys, budget, load, selection.delayMs), ...(start === 'spread' ? { start } : {}) });
          }
        }
      }
    }
  }
  return cells;
}

function cellSpec(leg: string, build: { dist: string; label: string }, keys: number, budget: number, load: string, delayMs: number): CellSpec {
  const rate = LOADS[load];
  if (rate === undefined) throw new Error(`Failed to plan the cell: no load named ${load} (known: ${Object.keys(LOADS).join(', ')}).`);
  const base = { leg, dist: build.dist, sdkLabel: build.label, keys, budget, load, delayMs };
  if (rate === 'burst') {
    // Long enough that every request of the burst still counts when the heap is read after it.
    const windowMs = Math.min(MAX_BURST_WINDOW_MS, Math.max(5_000, Math.ceil((keys * budget * 1000) / SLOWEST_BURST_RATE) + 5_000));
    return { ...base, kind: 'burst', windowMs, jobPerKey: budget };
  }
  const windowMs = Math.min(MAX_WINDOW_MS, Math.max(MIN_WINDOW_MS, Math.round((keys * budget * 1000) / rate)));
  return { ...base, kind: 'paced', windowMs, jobPerKey: 3 * budget };
}

/** A rough duration of a cell, for the plan's estimate. */
export function estimateCellMs(cell: CellSpec): number {
  const startup = 3_000;
  if (cell.kind === 'burst') return startup + 2 * cell.windowMs;
  return startup + (cell.start === 'spread' ? 3 : 2) * cell.windowMs + (cell.keys * cell.jobPerKey * 1000) / 20_000;
}
