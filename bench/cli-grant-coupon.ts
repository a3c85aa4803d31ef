/**
 * Issue 27's CLI case: `school-admin grant-coupon` with its defaults (batch mode, the documented
 * 200 per minute assumed at first), 300 members of the demo school, against the mock server at a
 * self-hosted budget (60 per 10 s). The target: within 1.12 x the minimum, the budget learnt
 * on the way. Each run gets a fresh server (an empty window, no member granted yet) and a fresh
 * CLI process: the built bin (`dist/cli/main.js`, what `npx school-admin` runs once installed;
 * the npm script builds it first).
 *
 * Per run: the command's wall time (spawn to exit) and the CLI's own "Done in", the first to the
 * last arrival at the server, each against the minimum (ceil(members / limit) - 1 windows after
 * the first request: the last request cannot arrive sooner), 429s, the window it learnt and the
 * `--rate-limit` it advised.
 *
 * Run: npm run bench:cli-grant [-- --runs 3 --rate-limit 60/10s --members 300 --json <file> --args "<extra grant-coupon arguments>"]
 */
import { spawn } from 'node:child_process';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSimulator, DEMO_API_KEY, DEMO_DELETED_MEMBER_NUMBERS, DEMO_IDS, demoMemberEmail, seedDemoSchool, startMockServer } from '../src/testing/index.js';
import { writeRunJson } from './support/json-file.js';
import { currentLoad, formatLoad, runContext } from './support/run-context.js';

const TARGET = 1.12;
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'rate-limit': { type: 'string', default: '60/10s' },
    members: { type: 'string', default: '300' },
    json: { type: 'string' },
    args: { type: 'string', default: '' },
  },
});
const runs = Number(values.runs);
const memberCount = Number(values.members);
const budget = /^(\d+)\/(\d+)s$/.exec(values['rate-limit']);
if (budget === null || !(Number.isInteger(runs) && runs >= 1) || !(Number.isInteger(memberCount) && memberCount >= 1)) throw new Error('Failed to read the options: --runs and --members take positive integers, --rate-limit takes N/Ws (60/10s). Fix the option and run again.');
const limit = Number(budget[1]);
const windowMs = Number(budget[2]) * 1_000;
const minimumMs = (Math.ceil(memberCount / limit) - 1) * windowMs;
const extraArgs = values.args.split(' ').filter((arg) => arg !== '');

const deleted = new Set<number>(DEMO_DELETED_MEMBER_NUMBERS);
const numbers: number[] = [];
for (let n = 1; numbers.length < memberCount; n += 1) if (!deleted.has(n)) numbers.push(n);
const csv = join(mkdtempSync(join(tmpdir(), 'bench-cli-grant-')), 'members.csv');
writeFileSync(csv, `email\n${numbers.map((n) => demoMemberEmail(n)).join('\n')}\n`);

interface CliRun {
  wallMs: number;
  doneInS: number | undefined;
  firstToLastArrivalMs: number;
  rateLimited: number;
  created: number;
  learnt: string | undefined;
  advice: string | undefined;
  load: number[];
}

async function runOnce(): Promise<CliRun> {
  const simulator = createSimulator({ limits: { mutations: { limit, windowMs } } });
  seedDemoSchool(simulator);
  const server = await startMockServer({ port: 0, simulator });
  try {
    const started = performance.now();
    const child = spawn(process.execPath, ['dist/cli/main.js', 'grant-coupon', '--coupon', DEMO_IDS.restrictedCouponId, '--csv', csv, ...extraArgs], {
      env: { ...process.env, ADMIN_API_URL: server.url, ADMIN_API_KEY: DEMO_API_KEY, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const wallMs = performance.now() - started;
    if (code !== 0) throw new Error(`Failed to run grant-coupon: exit code ${code}. Its output:\n${stdout}`);
    const arrivals = simulator.requestLog().filter((entry) => entry.operationType === 'mutations').map((entry) => entry.arrivedAt);
    const text = stdout.replace(/\s+/g, ' ');
    return {
      wallMs,
      doneInS: Number(/Done in (\d+) s/.exec(text)?.[1] ?? Number.NaN),
      firstToLastArrivalMs: Math.max(...arrivals) - Math.min(...arrivals),
      rateLimited: simulator.stats().rateLimited.mutations,
      created: Number(/created (\d+)/.exec(text)?.[1] ?? Number.NaN),
      learnt: /between ([\d.]+ and [\d.]+ s)/.exec(text)?.[1] ?? /per (\d+ s), not/.exec(text)?.[1],
      advice: /pass --rate-limit (\S+)/.exec(text)?.[1],
      load: currentLoad(),
    };
  } finally {
    await server.close();
  }
}

const context = runContext();
console.log(`CLI grant-coupon bench: ${context.sdk}, node ${context.node}, ${context.startedAt}, ${formatLoad(context.loadBefore)}`);
console.log(`${memberCount} members, server ${limit} per ${windowMs / 1_000} s, minimum ${minimumMs / 1_000} s (the last request cannot arrive sooner), target ${TARGET} x${extraArgs.length > 0 ? `, extra arguments: ${extraArgs.join(' ')}` : ''}`);
const results: CliRun[] = [];
for (let run = 1; run <= runs; run += 1) {
  const result = await runOnce();
  results.push(result);
  const ratio = (ms: number) => (ms / minimumMs).toFixed(3);
  console.log(
    `run ${run}: wall ${(result.wallMs / 1_000).toFixed(1)} s (${ratio(result.wallMs)} x), "Done in ${result.doneInS} s", first to last arrival ${(result.firstToLastArrivalMs / 1_000).toFixed(1)} s (${ratio(result.firstToLastArrivalMs)} x), ` +
      `${result.rateLimited} x 429, created ${result.created}, window learnt ${result.learnt ?? '-'}, advice --rate-limit ${result.advice ?? '-'}, ${formatLoad(result.load)}`,
  );
}
const worst = results.map((result) => result.wallMs / minimumMs).sort((a, b) => b - a);
console.log(`worst first (wall / minimum): ${worst.map((ratio) => ratio.toFixed(3)).join(', ')}; ${worst.filter((ratio) => ratio > TARGET).length} of ${runs} over ${TARGET}`);
if (values.json !== undefined) writeRunJson(values.json, context, 'runs', results);
