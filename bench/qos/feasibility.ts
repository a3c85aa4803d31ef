/**
 * Which of a QoS matrix run's cells the old target (bulk within 1.03 x the safe bound, and p95)
 * could not have been met by any pacing: for each cell run, the slot-cycles its bulk ratio lets
 * go unused against the least that keeping interactive calls within p95 leaves unused when nobody
 * knows in advance when they come (bench/qos/idle-bound.ts); and, since issue 27, whether the cell
 * met the promise of its mode (bench/qos/promise.ts, recomputed here for runs saved before it).
 * Prints every cell run as a Markdown table, conflicts first, then the misses with room, then the
 * rest; and a count of cells the bound calls a conflict that met every target anyway (the bound
 * would be wrong).
 * Usage: npx tsx bench/qos/feasibility.ts <file.json> [more.json ...]   (files of bench:qos --json)
 */
import { parseArgs } from 'node:util';
import { TARGETS } from './cell-figures.js';
import { idleBound } from './idle-bound.js';
import { defaultPromiseMs } from './promise.js';
import { readSavedRuns } from './saved-runs.js';

const { positionals } = parseArgs({ allowPositionals: true });
if (positionals.length === 0) throw new Error('usage: feasibility.ts <file.json> [more.json ...]');
const cells = readSavedRuns(positionals)
  .flatMap((run) => run.cells)
  .filter((cell): cell is typeof cell & { plan: { interactive: NonNullable<(typeof cell)['plan']['interactive']> } } => cell.plan.factors !== undefined && cell.plan.interactive !== undefined);

const rows = cells.map(({ plan, figures }) => {
  const bound = idleBound({
    budget: plan.budget,
    roundTripMs: figures.roundTripMs,
    sent: figures.sent,
    burst: plan.interactive.burst,
    calls: figures.interactiveCount,
    ratioTarget: TARGETS.ratio,
    p95Target: TARGETS.p95,
  });
  // The promise of the cell's mode: the ratio against 1.03 x P / bound, p50 and p95 as before.
  const promiseMs = plan.interactiveReserve === 0 ? figures.boundMs : defaultPromiseMs(figures.sent, figures.roundTripMs, plan.budget, plan.interactive.burst, plan.interactiveReserve);
  const ratioTarget = (TARGETS.ratio * promiseMs) / figures.boundMs;
  // Batch mode: no p50/p95 promise, the wait instead (cell-figures.ts).
  const batchMode = plan.interactiveReserve === 0;
  const waitMissed = batchMode && figures.maxMs > plan.budget.windowMs + TARGETS.p95 * figures.roundTripMs;
  const promiseMisses = [
    ...figures.misses.filter((target) => target !== 'ratio' && target !== 'wait' && !(batchMode && (target === 'p50' || target === 'p95'))),
    ...(waitMissed ? ['wait'] : []),
    ...(figures.ratio > ratioTarget ? ['ratio'] : []),
  ];
  return { plan, figures, bound, missed: figures.misses.some((target) => target !== 'ratio') || figures.ratio > TARGETS.ratio, ratioTarget, promiseMisses };
});
const rank = (row: (typeof rows)[number]): number => (row.bound.conflict ? 0 : row.missed ? 1 : 2);
rows.sort((a, b) => rank(a) - rank(b) || b.bound.forced - b.bound.allowed - (a.bound.forced - a.bound.allowed));

const verdict = (row: (typeof rows)[number]): string => (row.bound.conflict ? '**conflict**' : row.missed ? 'room' : 'met');
console.log('| budget | topology | start | load | shape | n | sent (slack) | allowed | forced (kept free) | verdict (old target) | ratio (promise) | p95, x rtt | the promise missed |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  const { plan, figures, bound } = row;
  const factors = plan.factors;
  if (factors === undefined) continue;
  const p95 = figures.interactiveCount === 0 ? '-' : (figures.p95Ms / figures.roundTripMs).toFixed(1);
  const columns = [
    `${plan.budget.limit}/${plan.budget.windowMs / 1000} s`,
    plan.topology,
    factors.start,
    `${Math.round(factors.load * 100)}%`,
    factors.shape,
    figures.interactiveCount,
    `${figures.sent} (${bound.slack})`,
    bound.allowed.toFixed(1),
    `${bound.forced.toFixed(1)} (${bound.keptFree})`,
    verdict(row),
    `${figures.ratio.toFixed(3)} (${row.ratioTarget.toFixed(3)})`,
    p95,
    row.promiseMisses.join(', ') || '-',
  ];
  console.log(`| ${columns.join(' | ')} |`);
}

const missed = rows.filter((row) => row.missed);
const conflicts = rows.filter((row) => row.bound.conflict);
const metAnyway = conflicts.filter((row) => !row.missed);
console.log(`\n${rows.length} cell runs; ${missed.length} miss a target.`);
console.log(`Conflict (forced > allowed): ${conflicts.length}, of which ${conflicts.length - metAnyway.length} missed and ${metAnyway.length} met every target anyway (each would show the bound wrong).`);
console.log(`Missed with room (forced <= allowed): ${missed.length - (conflicts.length - metAnyway.length)}.`);
const byTarget = ['p50', 'p95', 'wait', 'ratio', '429s', 'failed'].map((target) => `${target} ${rows.filter((row) => row.promiseMisses.includes(target)).length}`);
console.log(`Against the promise of their mode (the ratio within 1.03 x P / bound): ${rows.filter((row) => row.promiseMisses.length > 0).length} of ${rows.length} miss; by target: ${byTarget.join(', ')}.`);
console.log('allowed, forced: slot-cycles (one slot unused for a window and a round trip); kept free: slots of the cheapest way to cover, the rest spread.');
