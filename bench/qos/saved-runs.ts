/** Reads the files `bench:qos --json` writes. */
import { readFileSync } from 'node:fs';
import type { CellPlan } from './cell.js';
import type { CellFigures } from './cell-figures.js';

/** One `bench:qos --json` file: how the run went, and every cell. */
export interface SavedRun {
  context: { sdk: string; node: string; startedAt: string; loadBefore: number[]; loadAfter: number[]; wallMs: number; args: string[] };
  cells: { plan: CellPlan; figures: CellFigures }[];
}

/** The runs saved in `files`; JSON writes NaN (a cell without an interactive answer) as null, read back as NaN. */
export function readSavedRuns(files: readonly string[]): SavedRun[] {
  return files.map((file) => JSON.parse(readFileSync(file, 'utf8'), (_key, value: unknown) => (value === null ? Number.NaN : value)) as SavedRun);
}
