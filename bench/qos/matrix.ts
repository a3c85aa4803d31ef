import type { BatchStart, CellPlan, Shape, Start, Topology } from './cell.js';
import type { Budget } from './setup.js';

/**
 * Issue 20's matrix. Windows are compressed so that a cell takes seconds, yet every budget is
 * reachable within its window: the bulk job sends 1,000 grants in about 2-3 s here (round trips
 * ~90-250 ms under that load), so 1,000 get a window of 10 s.
 */
export const BUDGETS: readonly Budget[] = [
  { limit: 20, windowMs: 2_000 },
  { limit: 50, windowMs: 3_000 },
  { limit: 200, windowMs: 6_000 },
  { limit: 1_000, windowMs: 10_000 },
];
/** Interactive calls per window as a share of the budget. */
export const LOADS: readonly number[] = [0.02, 0.08, 0.2];
export const STARTS: readonly Start[] = ['with', 'mid', 'later'];
export const SHAPES: readonly Shape[] = ['single', 'burst3'];
export const TOPOLOGIES: readonly Topology[] = ['one', 'two-clients', 'two-processes'];
/** The bulk job: this many windows' worth of the budget, so the bound spans several windows. */
export const BULK_WINDOWS = 6;
/**
 * The reduced design, fixed before any run: the full factorial for one client, and loads of 2 %
 * and 20 % only for two clients and two processes (168 cells instead of 216).
 */
export const REDUCED_LOADS: readonly number[] = [0.02, 0.2];

/** When a start begins, after the bulk job's start. */
export function startOffsetMs(start: Start, budget: Budget): number {
  if (start === 'with') return 0;
  return start === 'mid' ? budget.windowMs / 2 : 3 * budget.windowMs;
}

/** Which cells to run: the design and the command line's filters (every value by default). */
export interface MatrixSelection {
  design: 'full' | 'reduced';
  budgets: readonly number[] | undefined;
  loads: readonly number[] | undefined;
  starts: readonly string[] | undefined;
  shapes: readonly string[] | undefined;
  topologies: readonly string[] | undefined;
}

/** Filter values that name no level of the matrix (a typo would otherwise select nothing). */
export function unknownLevels(selection: MatrixSelection): string[] {
  const unknown = <T>(wanted: readonly T[] | undefined, levels: readonly T[]): T[] => (wanted ?? []).filter((value) => !levels.includes(value));
  return [
    ...unknown(selection.budgets, BUDGETS.map((budget) => budget.limit)).map((value) => `budget ${value}`),
    ...unknown(selection.loads, LOADS.map((load) => Math.round(load * 100))).map((value) => `load ${value}`),
    ...unknown(selection.starts, STARTS as readonly string[]).map((value) => `start ${value}`),
    ...unknown(selection.shapes, SHAPES as readonly string[]).map((value) => `shape ${value}`),
    ...unknown(selection.topologies, TOPOLOGIES as readonly string[]).map((value) => `topology ${value}`),
  ];
}

/**
 * The matrix's cells in run order (topology, budget, start, load, shape). Each interactive traffic
 * gets a random phase: its first call (or burst) comes at a uniformly drawn point of its first period.
 */
export function matrixPlans(selection: MatrixSelection, random: () => number = Math.random): CellPlan[] {
  const keep = <T>(values: readonly T[], wanted: readonly T[] | undefined): readonly T[] => (wanted === undefined ? values : values.filter((value) => wanted.includes(value)));
  const plans: CellPlan[] = [];
  for (const topology of keep(TOPOLOGIES, selection.topologies as Topology[] | undefined)) {
    const designLoads = selection.design === 'reduced' && topology !== 'one' ? REDUCED_LOADS : LOADS;
    for (const budget of BUDGETS.filter((candidate) => selection.budgets === undefined || selection.budgets.includes(candidate.limit))) {
      for (const start of keep(STARTS, selection.starts as Start[] | undefined)) {
        for (const load of designLoads.filter((candidate) => selection.loads === undefined || selection.loads.includes(Math.round(candidate * 100)))) {
          for (const shape of keep(SHAPES, selection.shapes as Shape[] | undefined)) {
            const burst = shape === 'single' ? 1 : 3;
            const periodMs = (burst * budget.windowMs) / (load * budget.limit);
            plans.push({
              name: 'matrix',
              budget,
              topology,
              bulkGrants: BULK_WINDOWS * budget.limit,
              interactive: { burst, periodMs, firstAfterMs: startOffsetMs(start, budget) + random() * periodMs },
              factors: { load, start, shape },
            });
          }
        }
      }
    }
  }
  return plans;
}

/** The batch matrix's starts: on an empty window, or after a window of other traffic. */
export const BATCH_STARTS: readonly BatchStart[] = ['empty', 'after'];
/** The other traffic before a batch job that starts `after`: interactive calls at this share of the budget, in bursts of 3, for one window. */
export const BATCH_PRIOR_LOAD = 0.2;

/**
 * Issue 27's batch matrix: every client in batch mode (`interactiveReserve: 0`), no interactive
 * call while the job runs; every budget and topology (two clients or processes each run half the
 * job), a job that starts on an empty window or after a window of other traffic (interactive calls
 * and bursts, the kind that made the lane rule keep slots).
 */
export function batchPlans(selection: Pick<MatrixSelection, 'budgets' | 'topologies' | 'starts'>): CellPlan[] {
  const plans: CellPlan[] = [];
  for (const topology of TOPOLOGIES.filter((candidate) => selection.topologies === undefined || selection.topologies.includes(candidate))) {
    for (const budget of BUDGETS.filter((candidate) => selection.budgets === undefined || selection.budgets.includes(candidate.limit))) {
      for (const start of BATCH_STARTS.filter((candidate) => selection.starts === undefined || selection.starts.includes(candidate))) {
        const periodMs = (3 * budget.windowMs) / (BATCH_PRIOR_LOAD * budget.limit);
        plans.push({
          name: 'batch',
          budget,
          topology,
          bulkGrants: BULK_WINDOWS * budget.limit,
          interactive: start === 'after' ? { burst: 3, periodMs, firstAfterMs: 0, untilMs: budget.windowMs - 50 } : undefined,
          factors: undefined,
          interactiveReserve: 0,
          batch: { start },
        });
      }
    }
  }
  return plans;
}

/**
 * A rough wall time for a cell, for the estimate printed before a run: the windows that the bulk
 * job and the interactive calls beside it need, a round trip per window, and the processes'
 * start-up (measured here: 2-3 s).
 */
export function estimateCellMs(plan: CellPlan): number {
  const interactive = plan.batch === undefined ? plan.interactive : undefined;
  const interactiveShare = interactive === undefined ? 0 : (interactive.burst * plan.budget.windowMs) / interactive.periodMs / plan.budget.limit;
  const sent = plan.bulkGrants / (1 - Math.min(0.5, interactiveShare));
  const windows = Math.ceil(sent / plan.budget.limit) - 1 + (plan.batch?.start === 'after' ? 1 : 0);
  return windows * (plan.budget.windowMs + 100) + 300 + 2_500;
}
