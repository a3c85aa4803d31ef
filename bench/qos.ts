/**
 * QoS benchmark (issues 13 and 20): one budget for interactive calls and bulk work. Every cell
 * starts a fresh simulator in its own process (strict sliding window, every arrival counted,
 * latency 5-80 ms each way) and fresh client processes with default options (only the server's
 * budget is told); a grantCouponToMany of six windows' worth runs while interactive calls
 * (updateCoupon / enrollStudent) are made on the same key. Per cell: interactive latency against
 * the median round trip, the bulk job against the safe bound for all mutations sent, 429s.
 *
 * Run: npm run bench:qos [-- names] [options]
 *   names: matrix (the default), batch (issue 27's batch matrix: every client with
 *          interactiveReserve 0, no interactive call during the job, which starts on an empty
 *          window or after one of other traffic; --budgets, --topologies and --starts empty,after
 *          filter it), issue20 (= issue20-a issue20-b issue20-c: the issue's measured cases), and
 *          issue 13's rows: same-client, burst, burst-unmarked, two-processes, reserve, sparse, or
 *          issue13 (= same-client burst two-processes)
 *   matrix filters: --budgets 20,50,200,1000  --loads 2,8,20  --starts with,mid,later
 *                   --shapes single,burst3  --topologies one,two-clients,two-processes
 *                   --design full|reduced (reduced: loads 2 and 20 only for two-clients and two-processes)
 *   --repeat N (every named row and cell N times)  --json <file> (every cell, for later comparison)
 *   --quiet (no line per cell as it goes; the summary only)  --estimate (print the plan and its estimate, run nothing)
 *   --interactive-reserve N (matrix and issue 20 cells: every client gets limits.interactiveReserve N, the one option not left default)
 *   --concurrency N (matrix and batch cells: the bulk job's concurrency, each process's part of it; default: the job's own, 64 or the limit when lower)
 *   issue 13 rows only: --baseline (the SDK of 9852450 side by side), --reserves 0,1,2,4
 */
import { parseArgs } from 'node:util';
import { writeRunJson } from './support/json-file.js';
import { currentLoad, formatLoad, runContext } from './support/run-context.js';
import type { CellPlan } from './qos/cell.js';
import { cellFigures, cellLabel, formatCell, LEGEND, TARGETS, type CellFigures } from './qos/cell-figures.js';
import { ISSUE_13_SCENARIOS, runIssue13 } from './qos/issue13.js';
import { ISSUE_20_SCENARIOS } from './qos/issue20-scenarios.js';
import { BATCH_STARTS, batchPlans, estimateCellMs, matrixPlans, unknownLevels, type MatrixSelection } from './qos/matrix.js';
import { runCell } from './qos/run-cell.js';
import { readInteractiveReserve } from './support/interactive-reserve-flag.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    budgets: { type: 'string' },
    loads: { type: 'string' },
    starts: { type: 'string' },
    shapes: { type: 'string' },
    topologies: { type: 'string' },
    design: { type: 'string', default: 'full' },
    repeat: { type: 'string', default: '1' },
    json: { type: 'string' },
    quiet: { type: 'boolean', default: false },
    estimate: { type: 'boolean', default: false },
    baseline: { type: 'boolean', default: false },
    reserves: { type: 'string', default: '0,1,2,4' },
    'interactive-reserve': { type: 'string' },
    concurrency: { type: 'string' },
  },
});
const list = (value: string | undefined): string[] | undefined => value?.split(',').map((item) => item.trim());
const numbers = (value: string | undefined): number[] | undefined => list(value)?.map(Number);
const repeat = Number(values.repeat);
if (values.design !== 'full' && values.design !== 'reduced') throw new Error(`Failed to read --design: ${values.design} is neither full nor reduced.`);

const names = positionals.length === 0 ? ['matrix'] : positionals.flatMap((name) => (name === 'issue20' ? Object.keys(ISSUE_20_SCENARIOS) : name === 'issue13' ? ['same-client', 'burst', 'two-processes'] : [name]));
const known = new Set<string>(['matrix', 'batch', ...Object.keys(ISSUE_20_SCENARIOS), ...ISSUE_13_SCENARIOS]);
const unknown = names.filter((name) => !known.has(name));
if (unknown.length > 0) throw new Error(`Failed to read the scenarios: ${unknown.join(', ')} unknown. Known: ${[...known].join(', ')}, issue20, issue13.`);

const selection: MatrixSelection = {
  design: values.design,
  budgets: numbers(values.budgets),
  loads: numbers(values.loads),
  starts: list(values.starts),
  shapes: list(values.shapes),
  topologies: list(values.topologies),
};
// The batch matrix has starts of its own; the matrix's filters go to the matrix.
const batchStarts = selection.starts?.filter((start) => (BATCH_STARTS as readonly string[]).includes(start));
const unknownFilters = unknownLevels({ ...selection, starts: selection.starts?.filter((start) => !(BATCH_STARTS as readonly string[]).includes(start)) });
if (unknownFilters.length > 0) throw new Error(`Failed to read the filters: no ${unknownFilters.join(', ')} in the matrix. See the levels in bench/qos/matrix.ts.`);

const interactiveReserve = readInteractiveReserve(values['interactive-reserve']);
const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) throw new Error(`Failed to read --concurrency: ${values.concurrency} is not a positive whole number. Pass --concurrency 1000.`);
const withConcurrency = (plan: CellPlan): CellPlan => (concurrency === undefined ? plan : { ...plan, concurrency });
const withReserve = (plan: CellPlan): CellPlan => withConcurrency(interactiveReserve === undefined ? plan : { ...plan, interactiveReserve });

const plans: CellPlan[] = [];
for (let round = 0; round < repeat; round += 1) {
  for (const name of names) {
    const named = ISSUE_20_SCENARIOS[name];
    if (named !== undefined) plans.push(withReserve(named));
  }
  if (names.includes('matrix')) plans.push(...matrixPlans({ ...selection, starts: selection.starts?.filter((start) => !batchStarts?.includes(start)) }).map(withReserve));
  if (names.includes('batch')) plans.push(...batchPlans({ ...selection, starts: batchStarts?.length === 0 ? undefined : batchStarts }).map(withConcurrency));
}

const context = runContext();
const began = Date.now();
const estimateMinutes = plans.reduce((sum, plan) => sum + estimateCellMs(plan), 0) / 60_000;
console.log(`QoS benchmark: SDK ${context.sdk}, node ${context.node}, ${context.startedAt}, ${formatLoad(context.loadBefore)}`);
if (plans.length > 0) {
  const design = names.includes('matrix') ? ` (design ${values.design})` : '';
  console.log(`${plans.length} cells${design}, estimated ${estimateMinutes.toFixed(0)} min; latency 5-80 ms each way, default client options but the budget${interactiveReserve === undefined ? '' : ` and limits.interactiveReserve ${interactiveReserve}`}${names.includes('batch') ? ' (batch cells: limits.interactiveReserve 0)' : ''}${concurrency === undefined ? '' : `; the bulk job's concurrency ${concurrency}`}.\n`);
}
if (values.estimate) process.exit(0);

const results: { plan: CellPlan; figures: CellFigures; wallMs: number; startedAt: string; loadAtStart: number }[] = [];
for (const [index, plan] of plans.entries()) {
  // The machine is shared: the load when each cell started goes with its figures.
  const [loadAtStart = Number.NaN] = currentLoad();
  const startedAt = new Date().toISOString();
  const outcome = await runCell(plan);
  const figures = cellFigures(outcome);
  results.push({ plan, figures, wallMs: outcome.wallMs, startedAt, loadAtStart });
  if (!values.quiet) console.log(`[${String(index + 1).padStart(3)}/${plans.length}] ${formatCell(plan, figures)}`);
}

if (results.length > 0) {
  const worstFirst = [...results].sort((a, b) => b.figures.score - a.figures.score);
  const missing = results.filter((result) => result.figures.misses.length > 0);
  console.log(`\nEvery cell, worst first (furthest from its targets): ${missing.length} of ${results.length} miss a target.`);
  for (const { plan, figures } of worstFirst) console.log(formatCell(plan, figures));
  const byTarget = ['p50', 'p95', 'wait', 'ratio', '429s', 'failed'].map((target) => `${target} ${results.filter((result) => result.figures.misses.includes(target)).length}`);
  console.log(`\nCells missing each target: ${byTarget.join(', ')}. Cells without an interactive answer (n 0): ${results.filter((result) => result.figures.interactiveCount === 0).length}.`);
  for (const limit of new Set(results.map((result) => result.plan.budget.limit))) {
    const cells = results.filter((result) => result.plan.budget.limit === limit).map((result) => result.figures);
    const range = (values: number[]): string => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}`;
    console.log(`Budget ${limit}: the first window of the bulk job sent ${range(cells.map((cell) => cell.firstWindowSent))} mutations; the ${limit}th went ${range(cells.map((cell) => cell.budgetReachedMs))} ms after the job's start.`);
  }
  console.log(LEGEND.join('\n'));
  console.log(`Targets: p50 <= ${TARGETS.p50}x, p95 <= ${TARGETS.p95}x, ratio <= its mode's promise (in brackets), 0 429s.`);
}

if (names.some((name) => (ISSUE_13_SCENARIOS as readonly string[]).includes(name))) {
  console.log('');
  await runIssue13({ named: names, withBaseline: values.baseline, repeat, reserves: numbers(values.reserves) ?? [] });
}

const wallMs = Date.now() - began;
console.log(`\nWall time ${(wallMs / 60_000).toFixed(1)} min; ${formatLoad()} at the end (${formatLoad(context.loadBefore)} at the start).`);
if (values.json !== undefined) {
  const cells = results.map(({ plan, ...rest }) => ({ label: cellLabel(plan).replace(/\s+/g, ' ').trim(), plan, ...rest }));
  writeRunJson(values.json, { ...context, loadAfter: currentLoad(), wallMs, args: process.argv.slice(2) }, 'cells', cells);
  console.log(`Every cell written to ${values.json}.`);
}
