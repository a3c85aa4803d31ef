/**
 * Many tenants in one process (issue 28): one AdminClient per school's key, each key with its own
 * budget, all in one process, against a fake API answering in 2 ms (a `fetch` in the process: the
 * SDK's own work is what is measured). Every cell runs in its own process and prints every figure:
 *
 * - burst cells: each key grants its full budget at once, twice, a window apart. Calls per second
 *   against bare `fetch` + `JSON.parse` of the same calls in the same process (before and after
 *   the SDK's rounds); heap per idle client (created; after use, once its counts ended) and per
 *   request counted in a window.
 * - paced cells (`light`, `heavy`: the offered load, every key's budget per window together): each
 *   key grants three budgets' worth, all keys at once. Every key's job time against its own bound:
 *   what a perfect pacer would do with the round trips the key's requests had (each request on the
 *   slot that frees first, a window after its answer; bench/tenants/ideal-pacer.ts). No key starves.
 * - every cell: requests over a key's budget in any sliding window (the fake server's count), failed calls.
 *
 * A store is a leg. The memory store's cells run here (bench/tenants/legs/); the Redis legs (one
 * redis-server and a 3-master cluster, each through ioredis and node-redis: `ioredis`, `node-redis`,
 * `ioredis-cluster`, `node-redis-cluster`) are handed to bench/tenants-redis.ts in a process of their
 * own once these are done, with the same keys, budgets and loads (each harness takes the loads it
 * knows: Redis adds `idle` and `gentle`), and print their figures the same way. Each part ends with
 * every figure held to its leg's goals, worst first; the run exits 1 when one is missed in either.
 *
 * Run: npm run bench:tenants [-- options]   (builds dist/ first; each cell: node --expose-gc)
 *   --legs memory,ioredis,node-redis,ioredis-cluster,node-redis-cluster (all by default)
 *   --keys 10,100,1000 (Redis: 100,1000)  --budgets 20,200 (Redis: 20,100)
 *   --loads burst,light,heavy (Redis: burst,idle,gentle; light and heavy when named)
 *   --starts together,spread (paced cells: all keys at one instant, the default, or key i at
 *     i / keys of a window, as schools' jobs start through a day; bench/tenants/starts.ts)
 *   --before <commit>  (also runs that commit's build, e.g. c07ece8; built once under node_modules/.cache)
 *   --before-only      (runs only that commit's build)
 *   --dist <folder>    (run another build instead of this checkout's dist/)
 *   --json <file> (the Redis legs' cells: <file>-redis.json)  --estimate (print the plan only)
 *   --from-json <file>  (print a saved run's memory cells and verdicts again, running nothing)
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { builtSdk } from './support/built-sdk.js';
import { writeRunJson } from './support/json-file.js';
import { formatLoad, runContext } from './support/run-context.js';
import type { CellResult, CellSpec } from './tenants/cell.js';
import { LEGS } from './tenants/legs/index.js';
import { estimateCellMs, LOADS, matrixCells } from './tenants/plan.js';
import { cellName, formatCell, verdicts, type Verdict } from './tenants/report.js';
import { OWN_DIST } from './tenants/sdk.js';
import { parseStarts, startLabel } from './tenants/starts.js';
import { REDIS_DEFAULT_LOADS, REDIS_LOAD_NAMES } from './tenants-redis/cell.js';
import { REDIS_LEG_NAMES } from './tenants-redis/leg-names.js';

const { values } = parseArgs({
  options: {
    legs: { type: 'string', default: [...Object.keys(LEGS), ...REDIS_LEG_NAMES].join(',') },
    keys: { type: 'string' },
    budgets: { type: 'string' },
    loads: { type: 'string' },
    starts: { type: 'string', default: 'together' },
    before: { type: 'string' },
    dist: { type: 'string' },
    json: { type: 'string' },
    estimate: { type: 'boolean', default: false },
    'from-json': { type: 'string' },
    'before-only': { type: 'boolean', default: false },
  },
});
const list = (value: string): string[] => value.split(',').map((item) => item.trim()).filter(Boolean);
const legs = list(values.legs).filter((leg) => LEGS[leg] !== undefined);
const isRedisLeg = (leg: string): boolean => (REDIS_LEG_NAMES as readonly string[]).includes(leg);
const redisLegs = list(values.legs).filter(isRedisLeg);
const unknownLegs = list(values.legs).filter((leg) => LEGS[leg] === undefined && !isRedisLeg(leg));
if (unknownLegs.length > 0) throw new Error(`Failed to read --legs: ${unknownLegs.join(', ')} unknown (known: ${[...Object.keys(LEGS), ...REDIS_LEG_NAMES].join(', ')}).`);
const givenLoads = values.loads === undefined ? undefined : list(values.loads);
const unknownLoads = (givenLoads ?? []).filter((load) => LOADS[load] === undefined && !REDIS_LOAD_NAMES.includes(load));
if (unknownLoads.length > 0) throw new Error(`Failed to read --loads: ${unknownLoads.join(', ')} unknown (known: ${[...new Set([...Object.keys(LOADS), ...REDIS_LOAD_NAMES])].join(', ')}).`);
const loads = givenLoads?.filter((load) => LOADS[load] !== undefined) ?? Object.keys(LOADS);
const redisLoads = givenLoads?.filter((load) => REDIS_LOAD_NAMES.includes(load)) ?? REDIS_DEFAULT_LOADS;
const before = values.before === undefined ? [] : [{ dist: builtSdk(values.before), label: values.before }];
const builds = [...before, ...(values['before-only'] && before.length > 0 ? [] : [{ dist: values.dist ?? OWN_DIST, label: values.dist === undefined ? 'now' : values.dist }])];
const starts = parseStarts(values.starts);
const cells = matrixCells({ legs, keys: list(values.keys ?? '10,100,1000').map(Number), budgets: list(values.budgets ?? '20,200').map(Number), loads, starts, builds, delayMs: 2 });
const runsRedis = redisLegs.length > 0 && redisLoads.length > 0 && values['from-json'] === undefined;

const saved = values['from-json'] === undefined ? undefined : (JSON.parse(readFileSync(values['from-json'], 'utf8')) as { cells: CellResult[] }).cells;
const context = runContext();
const estimateMin = cells.reduce((sum, cell) => sum + estimateCellMs(cell), 0) / 60_000;
if (saved !== undefined) console.log(`Tenants: ${saved.length} cells saved in ${values['from-json']} (nothing run)`);
else console.log(`Tenants: ${cells.length} cells (${legs.join(', ')}; builds ${builds.map((build) => build.label).join(', ')}), about ${estimateMin.toFixed(0)} min; ${context.sdk}, node ${context.node}, ${formatLoad()}`);
if (values.estimate && saved === undefined) {
  for (const cell of cells) console.log(`  ${cell.sdkLabel} ${cell.leg} ${cell.keys} keys x ${cell.budget}/${cell.windowMs} ms ${cell.load}${startLabel(cell.start)}: ${cell.jobPerKey} grants per key, ~${(estimateCellMs(cell) / 1000).toFixed(0)} s`);
  if (runsRedis) console.log(`  then the Redis legs (${redisLegs.join(', ')}; loads ${redisLoads.join(', ')}) in bench/tenants-redis.ts (no estimate)`);
  process.exit(0);
}

function runCell(cell: CellSpec): Promise<CellResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/tenants/cell-worker.ts', JSON.stringify(cell)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let result: CellResult | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('{')) result = JSON.parse(line) as CellResult;
      else console.log(`  | ${line}`);
    });
    child.on('error', reject);
    child.on('close', (code) => (result === undefined ? reject(new Error(`Failed to run the cell ${cell.leg} ${cell.keys}x${cell.budget} ${cell.load}: the worker exited with ${code}.`)) : resolve(result)));
  });
}

const results: CellResult[] = saved ?? [];
if (saved === undefined) {
  for (const cell of cells) {
    const result = await runCell(cell);
    results.push(result);
    console.log(formatCell(result));
    // After each cell, so that a run stopped midway keeps what it measured.
    if (values.json !== undefined) writeRunJson(values.json, context, 'cells', results);
  }
} else {
  for (const result of saved) console.log(formatCell(result));
}

// Every figure held to its goal, worst first (the score: how far past its goal; above 1 is a miss).
if (cells.length > 0 || saved !== undefined) {
const rows: Array<{ cell: string; verdict: Verdict }> = results.flatMap((result) => verdicts(result, LEGS[result.spec.leg]?.goals ?? {}).map((verdict) => ({ cell: cellName(result), verdict })));
rows.sort((a, b) => b.verdict.score - a.verdict.score);
const missed = rows.filter((row) => row.verdict.score > 1);
console.log(`\nEvery figure against its goal, worst first (${missed.length} missed of ${rows.length}):`);
for (const row of rows) console.log(`  ${row.verdict.score > 1 ? 'MISS' : 'ok  '} ${row.cell}: ${row.verdict.figure} ${row.verdict.text}`);
process.exitCode = missed.length > 0 ? 1 : 0;
}

if (runsRedis) {
  // The Redis legs' own harness (servers, a cluster, Redis's counters), with the same selection.
  const args = ['--import', 'tsx', 'bench/tenants-redis.ts', '--legs', redisLegs.join(','), '--loads', redisLoads.join(','), '--starts', starts.join(','), '--before', values.before ?? ''];
  if (values.keys !== undefined) args.push('--keys', values.keys);
  if (values.budgets !== undefined) args.push('--budgets', values.budgets);
  if (values.json !== undefined) args.push('--json', values.json.replace(/\.json$/, '') + '-redis.json');
  console.log(`\nThe Redis legs (${redisLegs.join(', ')}): bench/tenants-redis.ts`);
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) process.exitCode = 1;
}
