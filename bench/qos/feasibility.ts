/**
 * Which of a QoS matrix run's cells no pacing could have met: for each cell run, the slot-cycles
 * its bulk ratio lets go unused against the least that keeping interactive calls within p95 leaves
 * unused when nobody knows in advance when they come (bench/qos/idle-bound.ts). Prints every cell
 * run as a Markdown table, conflicts first, then the misses with room, then the rest; and a count
 * of cells the bound calls a conflict that met every target anyway (the bound would be wrong).
 * Usage: npx tsx bench/qos/feasibility.ts <file.json> [more.json ...]   (files of bench:qos --json)
 */
import { parseArgs } from 'node:util';
import { TARGETS } from './cell-figures.js';
import { idleBound } from './idle-bound.js';
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
  return { plan, figures, bound, missed: figures.misses.length > 0 };
});
const rank = (row: (typeof rows)[number]): number => (row.bound.conflict ? 0 : row.missed ? 1 : 2);
rows.sort((a, b) => rank(a) - rank(b) || b.bound.forced - b.bound.allowed - (a.bound.forced - a.bound.allowed));

const verdict = (row: (typeof rows)[number]): string => (row.bound.conflict ? '**conflict**' : row.missed ? 'room' : 'met');
console.log('| budget | topology | start | load | shape | n | sent (slack) | allowed | forced (kept free) | verdict | missed | ratio | p95, x rtt |');
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
    figures.misses.join(', ') || '-',
    figures.ratio.toFixed(3),
    p95,
  ];
  console.log(`| ${columns.join(' | ')} |`);
}

const missed = rows.filter((row) => row.missed);
const conflicts = rows.filter((row) => row.bound.conflict);
const metAnyway = conflicts.filter((row) => !row.missed);
console.log(`\n${rows.length} cell runs; ${missed.length} miss a target.`);
console.log(`Conflict (forced > allowed): ${conflicts.length}, of which ${conflicts.length - metAnyway.length} missed and ${metAnyway.length} met every target anyway (each would show the bound wrong).`);
console.log(`Missed with room (forced <= allowed): ${missed.length - (conflicts.length - metAnyway.length)}.`);
console.log('allowed, forced: slot-cycles (one slot unused for a window and a round trip); kept free: slots of the cheapest way to cover, the rest spread.');
