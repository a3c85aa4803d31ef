/**
 * Renders `bench:qos --json` files as the tables of bench/README.md: the matrix laid out by
 * budget, topology and start (rows) and load and shape (columns), each cell
 * `p50 / p95 (x rtt) · bulk ratio` with missed targets in bold (one line per run when several
 * files hold the cell), then every cell worst first.
 * Usage: npx tsx bench/qos/markdown.ts <file.json> [more.json ...] [--worst N]   (N: how many cells in the worst-first list; default all)
 */
import { parseArgs } from 'node:util';
import type { CellFigures } from './cell-figures.js';
import { formatCell } from './cell-figures.js';
import { BATCH_STARTS, BUDGETS, LOADS, SHAPES, STARTS, TOPOLOGIES } from './matrix.js';
import { readSavedRuns } from './saved-runs.js';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { worst: { type: 'string' } } });
if (positionals.length === 0) throw new Error('usage: markdown.ts <file.json> [more.json ...] [--worst N]');
const runs = readSavedRuns(positionals);
const cells = runs.flatMap((run) => run.cells);
const matrix = cells.filter((cell) => cell.plan.factors !== undefined);
const batch = cells.filter((cell) => cell.plan.batch !== undefined);

const bold = (text: string, missed: boolean): string => (missed ? `**${text}**` : text);
function entry(figures: CellFigures): string {
  const times = (ms: number): string => (Number.isNaN(ms) ? '-' : (ms / figures.roundTripMs).toFixed(1));
  const counts = [figures.ownRateLimited + figures.serverRateLimited > 0 ? `429s ${figures.ownRateLimited}/${figures.serverRateLimited}` : '', figures.failed > 0 ? `failed ${figures.failed}` : '']
    .filter((text) => text !== '')
    .join(' ');
  return [
    `${bold(times(figures.p50Ms), figures.misses.includes('p50'))} / ${bold(times(figures.p95Ms), figures.misses.includes('p95'))}`,
    bold(figures.ratio.toFixed(3), figures.misses.includes('ratio')),
    ...(counts === '' ? [] : [`**${counts}**`]),
  ].join(' · ');
}

// The batch matrix (issue 27): bulk time / bound against 1.03, by budget, topology and start.
if (batch.length > 0) {
  console.log(`| budget | topology | ${BATCH_STARTS.map((start) => `start ${start}: ratio (bound, sent)`).join(' | ')} |`);
  console.log(`|---|---|${BATCH_STARTS.map(() => '---').join('|')}|`);
  for (const budget of BUDGETS) {
    for (const topology of TOPOLOGIES) {
      const row = BATCH_STARTS.map((start) =>
        batch
          .filter((cell) => cell.plan.budget.limit === budget.limit && cell.plan.topology === topology && cell.plan.batch?.start === start)
          .map(({ figures }) => `${bold(figures.ratio.toFixed(3), figures.misses.length > 0)} (${(figures.boundMs / 1000).toFixed(1)} s, ${figures.sent}; rtt ${figures.roundTripMs.toFixed(0)} ms)`)
          .join('<br>'),
      );
      if (row.some((text) => text !== '')) console.log(`| ${budget.limit}/${budget.windowMs / 1000} s | ${topology} | ${row.join(' | ')} |`);
    }
  }
  console.log(`\n${batch.filter((cell) => cell.figures.misses.length > 0).length} of ${batch.length} batch cell runs miss a target (ratio <= 1.03, 0 429s, 0 failed).\n`);
}

const columns = LOADS.flatMap((load) => SHAPES.map((shape) => ({ load, shape })));
console.log(`| budget | topology | start | ${columns.map(({ load, shape }) => `${Math.round(load * 100)}% ${shape}`).join(' | ')} |`);
console.log(`|---|---|---|${columns.map(() => '---').join('|')}|`);
for (const budget of BUDGETS) {
  for (const topology of TOPOLOGIES) {
    for (const start of STARTS) {
      const row = columns.map(({ load, shape }) => {
        const found = matrix.filter(
          (cell) =>
            cell.plan.budget.limit === budget.limit && cell.plan.topology === topology && cell.plan.factors?.start === start && cell.plan.factors.load === load && cell.plan.factors.shape === shape,
        );
        return found.length === 0 ? '' : found.map((cell) => entry(cell.figures)).join('<br>');
      });
      if (row.some((text) => text !== '')) console.log(`| ${budget.limit}/${budget.windowMs / 1000} s | ${topology} | ${start} | ${row.join(' | ')} |`);
    }
  }
}
const missing = matrix.filter((cell) => cell.figures.misses.length > 0).length;
console.log(`\n${missing} of ${matrix.length} cell runs miss a target. Each: p50 / p95 as multiples of the cell's median round trip · bulk time / safe bound (bold: a target missed; the ratio's is the promise of the cell's mode).`);
const byTarget = ['p50', 'p95', 'wait', 'ratio', '429s', 'failed'].map((target) => `${target} ${matrix.filter((cell) => cell.figures.misses.includes(target)).length}`);
console.log(`Cells missing each target: ${byTarget.join(', ')}.`);

const worst = [...cells].sort((a, b) => b.figures.score - a.figures.score);
const shown = values.worst === undefined ? worst : worst.slice(0, Number(values.worst));
console.log(`\nWorst first (${shown.length} of ${worst.length}):\n\n\`\`\`text`);
for (const { plan, figures } of shown) console.log(formatCell(plan, figures));
console.log('```');
for (const { context } of runs) {
  console.log(`\nRun: ${context.args.join(' ') || '(no arguments)'}; SDK ${context.sdk}; node ${context.node}; ${context.startedAt}; ${(context.wallMs / 60_000).toFixed(0)} min; load ${context.loadBefore.join(', ')} at the start, ${context.loadAfter.join(', ')} at the end.`);
}
