/**
 * Many tenants in one process, Redis legs (issue 28): one AdminClient per school's key, each key with
 * its own budget, all sharing one RedisPermitStore, against a fake API answering in 2 ms (a `fetch`
 * in the process: the SDK's and the store's own work is what is measured). The legs of
 * bench:tenants (the memory store's benchmark) for Redis: one redis-server and a 3-master cluster,
 * each through ioredis and node-redis 6. Each cell runs in its own process (node --expose-gc):
 *
 * - burst cells: each key grants its full budget at once, twice, a window apart: calls per second
 *   against bare `fetch` + `JSON.parse` of the same calls in the same process; heap per request
 *   counted in a window, read once the burst settled and again 8 s later (node-redis's per-command
 *   timeouts are gone by then) when the window allows; with two budgets, that heap split into per
 *   request and per key; round trips per permit (socket reads Redis processed, INFO stats
 *   `total_reads_processed`, all masters: one per batch of commands that arrived together) and
 *   script calls per permit (INFO commandstats EVALSHA + EVAL).
 * - paced cells (`light`: 2,000 calls/s offered, `heavy`: 8,000): each key grants three budgets'
 *   worth, all keys at once: every key's job time against its own bound (bench/tenants/ideal-pacer.ts, the callers not counted).
 * - every cell: requests over a key's budget in any sliding window (the fake server's count), failed calls.
 *
 * Goals (issue 28, Redis): at most 200 B of heap per counted request, at most 1 round trip per
 * permit, every key's job within 1.05 x its bound. The run ends with every figure against its goal,
 * worst first, and exits 1 when one is missed.
 *
 * Run: npm run bench:tenants:redis [-- options]
 *   --legs ioredis,node-redis,ioredis-cluster,node-redis-cluster  --keys 100,1000  --budgets 20,100
 *   --loads burst,idle,gentle (light, heavy when named)  --before c07ece8 (also runs that commit's store, ioredis leg only; '' for none)
 *   --starts together,spread (paced cells; bench/tenants/starts.ts)  --json <file>
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { writeRunJson } from './support/json-file.js';
import { runContext } from './support/run-context.js';
import { parseStarts, startLabel, startsOfLoad } from './tenants/starts.js';
import { cellSpec, LOADS, REDIS_DEFAULT_LOADS, type CellResult, type CellSpec } from './tenants-redis/cell.js';
import { LEGS } from './tenants-redis/legs.js';
import { prepareBuild } from './tenants-redis/sdk.js';

const { values } = parseArgs({
  options: {
    legs: { type: 'string', default: Object.keys(LEGS).filter((name) => name !== 'memory').join(',') },
    keys: { type: 'string', default: '100,1000' },
    budgets: { type: 'string', default: '20,100' },
    loads: { type: 'string', default: REDIS_DEFAULT_LOADS.join(',') },
    before: { type: 'string', default: 'c07ece8' },
    starts: { type: 'string', default: 'together' },
    json: { type: 'string' },
  },
});
const list = (value: string): string[] => value.split(',').map((item) => item.trim()).filter(Boolean);
const legs = list(values.legs);
const unknown = legs.filter((name) => LEGS[name] === undefined);
if (unknown.length > 0) throw new Error(`Failed to read --legs: ${unknown.join(', ')} unknown (known: ${Object.keys(LEGS).join(', ')}).`);
const starts = parseStarts(values.starts);
const builds = [...(values.before === '' ? [] : [values.before]), 'now'];
for (const build of builds) prepareBuild(build);

const cells: CellSpec[] = [];
for (const build of builds) {
  for (const name of legs) {
    if (build !== 'now' && LEGS[name]?.before !== true) continue;
    for (const load of list(values.loads)) {
      for (const start of startsOfLoad(LOADS[load] === 'burst', starts)) {
        for (const keys of list(values.keys)) for (const budget of list(values.budgets)) cells.push({ ...cellSpec(name, build, Number(keys), Number(budget), load), ...(start === 'spread' ? { start } : {}) });
      }
    }
  }
}
const context = runContext();
console.log(`Tenants, Redis legs: ${cells.length} cells (${legs.join(', ')}; builds ${builds.join(', ')}); ${context.sdk}, node ${context.node}, load ${loadavg()[0]?.toFixed(1)}`);

function runCell(cell: CellSpec): Promise<CellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/tenants-redis/cell-worker.ts', JSON.stringify(cell)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let result: CellResult | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('{')) result = JSON.parse(line) as CellResult;
      else console.log(`  | ${line}`);
    });
    child.on('error', reject);
    child.on('close', (code) => (result === undefined ? reject(new Error(`Failed to run the cell ${cellName(cell)}: the worker exited with ${code}.`)) : resolve(result)));
  });
}

const cellName = (cell: CellSpec): string => `${cell.build} ${cell.leg} ${cell.keys} keys x ${cell.budget}/${cell.windowMs / 1000} s ${cell.load}${startLabel(cell.start)}`;
const fixed = (value: number | undefined, digits: number): string => (value === undefined ? '-' : value.toFixed(digits));

function formatCell(result: CellResult): string {
  const calls = result.sdkCallsPerSecond.map((rate) => (rate / 1000).toFixed(1)).join(' / ');
  const bare = result.bareCallsPerSecond.map((rate) => (rate / 1000).toFixed(1)).join(' / ');
  const parts = [`${cellName(result.spec)}:`, `${calls} k calls/s${bare === '' ? '' : ` (bare fetch ${bare})`}`];
  if (result.heapPerCounted !== undefined) parts.push(`heap ${fixed(result.heapPerCounted, 0)} B per counted request (8 s later: ${fixed(result.heapPerCountedLater, 0)})`);
  parts.push(`${fixed(result.roundTripsPerPermit, 2)} round trips and ${fixed(result.scriptCallsPerPermit, 2)} script calls per permit`);
  if (result.jobs !== undefined) parts.push(`job/bound worst ${fixed(result.jobs.worst, 3)} (p99 ${fixed(result.jobs.p99, 3)}, median ${fixed(result.jobs.median, 3)}, worst/median ${fixed(result.jobs.worst / result.jobs.median, 3)}; worst ${fixed(result.jobs.worstJobMs, 0)} ms against ${fixed(result.jobs.worstBoundMs, 0)}; median key: first window left in ${fixed(result.jobs.firstWindowMs, 0)} ms, later requests ${fixed(result.jobs.reuseLagMs, 0)} ms after their slot freed)`);
  parts.push(`${result.overLimit} over limit, ${result.failed} failed, load ${result.load.map((load) => load.toFixed(1)).join('->')}`);
  return parts.join(', ');
}

/** Each figure against its goal (score: how far past it; above 1 is a miss). */
function verdicts(result: CellResult): { score: number; text: string }[] {
  const goals = LEGS[result.spec.leg]?.goals;
  if (goals === undefined) return [];
  const out: { score: number; text: string }[] = [];
  if (result.heapPerCounted !== undefined) out.push({ score: result.heapPerCounted / goals.heapPerCounted, text: `heap ${fixed(result.heapPerCounted, 0)} B per counted request (goal <= ${goals.heapPerCounted})` });
  if (result.heapPerCountedLater !== undefined) out.push({ score: result.heapPerCountedLater / goals.heapPerCounted, text: `heap ${fixed(result.heapPerCountedLater, 0)} B per counted request 8 s later (goal <= ${goals.heapPerCounted})` });
  out.push({ score: result.roundTripsPerPermit / goals.roundTripsPerPermit, text: `${fixed(result.roundTripsPerPermit, 2)} round trips per permit (goal <= ${goals.roundTripsPerPermit})` });
  if (result.jobs !== undefined) out.push({ score: result.jobs.worst / goals.jobOverBound, text: `worst key's job ${fixed(result.jobs.worst, 3)} x its bound (goal <= ${goals.jobOverBound})` });
  out.push({ score: result.overLimit > 0 || result.failed > 0 ? 2 : 0, text: `${result.overLimit} over limit, ${result.failed} failed (goal 0)` });
  return out;
}

const results: CellResult[] = [];
for (const cell of cells) {
  const result = await runCell(cell);
  results.push(result);
  console.log(formatCell(result));
}
if (values.json !== undefined) writeRunJson(values.json, context, 'cells', results);

/**
 * Heap per counted request mixes what each key costs once (its client's state on first use, its
 * bucket in the store) with what each request counted holds. Two burst cells of one leg and key
 * count with different budgets tell them apart: the slope is the heap per request counted.
 */
function heapSplit(all: readonly CellResult[]): string[] {
  const groups = new Map<string, CellResult[]>();
  for (const result of all) {
    if (result.heapPerCounted === undefined) continue;
    const name = `${result.spec.build} ${result.spec.leg} ${result.spec.keys} keys`;
    groups.set(name, [...(groups.get(name) ?? []), result]);
  }
  const lines: string[] = [];
  for (const [name, cells] of groups) {
    const [low, high] = [...cells].sort((a, b) => a.spec.budget - b.spec.budget);
    if (low === undefined || high === undefined || low.spec.budget === high.spec.budget) continue;
    // The later reading when both cells have it (what stays while requests count), else the first.
    const later = low.heapPerCountedLater !== undefined && high.heapPerCountedLater !== undefined;
    const heap = (cell: CellResult): number => ((later ? cell.heapPerCountedLater : cell.heapPerCounted) ?? 0) * cell.spec.keys * cell.spec.budget;
    const perRequest = (heap(high) - heap(low)) / ((high.spec.budget - low.spec.budget) * low.spec.keys);
    const perKey = (heap(low) - perRequest * low.spec.keys * low.spec.budget) / low.spec.keys;
    lines.push(`  ${name}, budgets ${low.spec.budget} and ${high.spec.budget}${later ? ' (8 s later)' : ''}: ${perRequest.toFixed(0)} B per request counted (the slope), ${(perKey / 1024).toFixed(1)} KB per key once`);
  }
  return lines;
}

const split = heapSplit(results);
if (split.length > 0) console.log(`\nHeap per counted request, split into per request and per key:\n${split.join('\n')}`);

const rows = results.flatMap((result) => verdicts(result).map((verdict) => ({ cell: cellName(result.spec), ...verdict })));
rows.sort((a, b) => b.score - a.score);
const missed = rows.filter((row) => row.score > 1);
console.log(`\nEvery figure against its goal, worst first (${missed.length} missed of ${rows.length}):`);
for (const row of rows) console.log(`  ${row.score > 1 ? 'MISS' : 'ok  '} ${row.cell}: ${row.text}`);
process.exitCode = missed.length > 0 ? 1 : 0;
