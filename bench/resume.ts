/**
 * A bulk grant job resumed after SIGKILL (issue 30, point 1): 300 grants against a simulator that
 * allows 200 mutations per 20 s (the documented budget, a shorter window), the first run killed
 * once its journal holds 150 members, the rest resumed at once. Per configuration and run: the
 * 429s the resumed run met, members not granted exactly once, and when its last request arrived
 * against two bounds that count the first run's requests: by the permit rule (until a window
 * after their recorded answers) and by the server's window (from their arrivals). See
 * test/workflows/support/resume-run.ts, which the tests (test/workflows/resume-budget.test.ts,
 * test/redis/resume-budget.test.ts) share.
 *
 * Configurations: `memory` (the SDK resumed in this process with a fresh memory store, 200 grants
 * in flight), `memory-64` (the same with the default concurrency), `cli` (both runs
 * `school-admin grant-coupon --journal`, from source through tsx; the resumed one with
 * --concurrency 200), `cli-64` (its default concurrency), `redis` (both SDK runs with a Redis
 * store; needs redis-server).
 *
 * Run: npm run bench:resume [-- --runs 3] [--configs memory,memory-64,cli,cli-64,redis]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MemoryPermitStore } from '../src/index.js';
import { createRedisPermitStore } from '../src/redis/index.js';
import { startGrantServer, writeMembersCsv, type GrantServer } from '../test/support/grant-school-server.js';
import { startRedisServer, type TestRedisServer } from '../test/support/redis-server.js';
import { BUDGET, MEMBERS, RATE_LIMIT, RESUMED_CONCURRENCY, figuresLine, killedPartWay, resumeInProcess, resumedFigures, sdkJob, type Killable, type KilledRun, type ResumedFigures } from '../test/workflows/support/resume-run.js';
import { currentLoad, formatLoad, runContext } from './support/run-context.js';

const CONFIGS = ['memory', 'memory-64', 'cli', 'cli-64', 'redis'] as const;
type Config = (typeof CONFIGS)[number];

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, configs: { type: 'string', default: CONFIGS.join(',') } } });
const runs = Number(values.runs);
const configs = values.configs.split(',').filter((name): name is Config => (CONFIGS as readonly string[]).includes(name));
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI_MAIN = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));

/** `school-admin <args>` from source, as a process to kill or wait for. */
function cli(args: readonly string[], target: GrantServer): Killable & { exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI_MAIN, ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...target.env },
    // Its progress lines would bury the figures; its exit status says whether it succeeded.
    stdio: 'ignore',
  });
  return { kill: () => child.kill('SIGKILL'), exited: new Promise((resolve) => child.once('exit', resolve)) };
}

async function runOnce(config: Config, dir: string, redis: TestRedisServer | undefined): Promise<ResumedFigures> {
  const target = await startGrantServer(MEMBERS, BUDGET);
  const journal = join(dir, `${config}.journal`);
  try {
    if (config === 'cli' || config === 'cli-64') {
      const csv = join(dir, `${config}.csv`);
      await writeMembersCsv(csv, target.emails);
      const args = ['grant-coupon', '--coupon', target.couponId, '--csv', csv, '--journal', journal, '--rate-limit', RATE_LIMIT];
      const killed: KilledRun = await killedPartWay(journal, () => cli(args, target));
      const code = await cli(config === 'cli' ? [...args, '--concurrency', String(RESUMED_CONCURRENCY)] : args, target).exited;
      if (code !== 0) throw new Error(`the resumed CLI run exited ${String(code)}`);
      const from = Math.min(...target.simulator.requestLog().filter((entry) => entry.arrivedAt >= killed.killedAt).map((entry) => entry.arrivedAt));
      return resumedFigures(target, from, killed, config);
    }
    const membersFile = join(dir, `${config}.txt`);
    await writeFile(membersFile, `${target.emails.join('\n')}\n`);
    const prefix = `bench-resume-${Date.now()}:`;
    const inRedis = config === 'redis' && redis !== undefined ? { url: redis.url, prefix } : undefined;
    const killed = await killedPartWay(journal, sdkJob(target, journal, membersFile, inRedis));
    const store = inRedis === undefined ? new MemoryPermitStore() : createRedisPermitStore(inRedis.url, { keyPrefix: prefix });
    try {
      const { from } = await resumeInProcess(target, journal, store, config === 'memory-64' ? undefined : RESUMED_CONCURRENCY);
      return resumedFigures(target, from, killed, config, inRedis === undefined ? 0 : 35_000);
    } finally {
      if ('close' in store) await store.close();
    }
  } finally {
    await target.server.close();
    await rm(journal, { force: true });
  }
}

const context = runContext();
console.log(`bench:resume: ${MEMBERS} grants, ${BUDGET.limit} per ${BUDGET.windowMs / 1000} s, killed after 150 members and resumed at once; ${runs} run(s) per configuration`);
console.log(`${context.sdk}; Node ${context.node}; ${context.startedAt}; before the run: ${formatLoad(context.loadBefore)}`);
const dir = await mkdtemp(join(tmpdir(), 'bench-resume-'));
async function redisOrSkip(): Promise<TestRedisServer | undefined> {
  try {
    return await startRedisServer();
  } catch (error) {
    console.log(`redis: skipped (${(error as Error).message})`);
    return undefined;
  }
}
const redis = configs.includes('redis') ? await redisOrSkip() : undefined;
const rows: Array<{ config: Config; run: number; figures: ResumedFigures }> = [];
try {
  for (const config of configs) {
    if (config === 'redis' && redis === undefined) continue;
    for (let run = 1; run <= runs; run += 1) {
      const figures = await runOnce(config, dir, redis);
      rows.push({ config, run, figures });
      console.log(`${config} #${run}: ${figuresLine(figures)}; ${formatLoad(currentLoad())}`);
    }
  }
} finally {
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
}

// Every cell, the worst (by the permit rule's ratio) first.
const ratio = (figures: ResumedFigures, bound: number): number => figures.lastArrivalMs / bound;
console.log('\n| configuration | run | resumed requests | 429 | not granted once | last arrival | ratio (permit rule) | ratio (server window) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const { config, run, figures } of [...rows].sort((a, b) => ratio(b.figures, b.figures.ruleBoundMs) - ratio(a.figures, a.figures.ruleBoundMs))) {
  console.log(
    `| ${config} | ${run} | ${figures.resumedRequests} | ${figures.rateLimited} | ${figures.notOnce.length} | ${(figures.lastArrivalMs / 1000).toFixed(1)} s | ${ratio(figures, figures.ruleBoundMs).toFixed(3)} | ${ratio(figures, figures.physicalBoundMs).toFixed(3)} |`,
  );
}
