/**
 * Pacing benchmark (issue: pacing under the rate limit). Over real loopback HTTP against the
 * simulator with a scaled window (50 mutations per 3 s) and heavy-tailed latency, for each
 * scenario it prints the 429s and the ratio of completion time to the theoretical minimum, for the
 * SDK and for a naive baseline (a plain GraphQL client, graphql-request's behaviour, + p-retry) side by side.
 *
 * Run: npm run bench:pacing   (needs redis-server on PATH for scenario c)
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startRedisServer } from '../test/support/redis-server.js';
import { startForeignTraffic } from './pacing/foreign-traffic.js';
import { runNaive, runSdk, type RunResult } from './pacing/runners.js';
import { startRemoteSimulator } from './support/remote-simulator.js';
import { medianRoundTrip } from './support/round-trip.js';
import { LIMIT, theoreticalMinimumMs, WINDOW_MS } from './pacing/setup.js';

const run = promisify(execFile);

interface Row {
  scenario: string;
  client: 'sdk' | 'naive';
  requests: number;
  result: RunResult;
  serverRateLimited: number;
  minimumMs: number;
}

const rows: Row[] = [];

async function measure(scenario: string, client: Row['client'], requests: number, budgetShare: number, body: (url: string) => Promise<RunResult>): Promise<void> {
  const server = await startRemoteSimulator('bench/pacing/server-process.ts');
  try {
    const roundTripMs = await medianRoundTrip(server.url);
    const result = await body(server.url);
    const serverRateLimited = (await server.stats()).rateLimited.mutations;
    rows.push({ scenario, client, requests, result, serverRateLimited, minimumMs: theoreticalMinimumMs(requests, budgetShare, roundTripMs) });
    printRow(rows.at(-1) as Row);
  } finally {
    await server.close();
  }
}

async function twoProcesses(mode: 'sdk' | 'naive', url: string, count: number, redisUrl: string): Promise<RunResult> {
  const worker = (offset: number) =>
    run(process.execPath, ['--import', 'tsx', 'bench/pacing/worker.ts', mode, url, String(count / 2), String(offset), redisUrl], { maxBuffer: 1 << 20 });
  const outputs = await Promise.all([worker(0), worker(count / 2)]);
  const results = outputs.map((output) => JSON.parse(output.stdout) as RunResult);
  // From the first request of either process to the last answer of either (process start-up excluded).
  const startedAt = Math.min(...results.map((result) => result.startedAt));
  const finishedAt = Math.max(...results.map((result) => result.finishedAt));
  return {
    startedAt,
    finishedAt,
    durationMs: finishedAt - startedAt,
    succeeded: results.reduce((sum, result) => sum + result.succeeded, 0),
    failed: results.reduce((sum, result) => sum + result.failed, 0),
    rateLimited: results.reduce((sum, result) => sum + result.rateLimited, 0),
  };
}

async function withForeign(url: string, body: () => Promise<RunResult>): Promise<RunResult> {
  const stop = startForeignTraffic(url, LIMIT / 2, WINDOW_MS);
  try {
    return await body();
  } finally {
    await stop();
  }
}

function printRow(row: Row): void {
  const ratio = row.result.durationMs / row.minimumMs;
  console.log(
    [
      row.scenario.padEnd(34),
      row.client.padEnd(6),
      String(row.requests).padStart(5),
      `${(row.result.durationMs / 1000).toFixed(2)} s`.padStart(9),
      `min ${(row.minimumMs / 1000).toFixed(2)} s`.padStart(11),
      `ratio ${ratio.toFixed(3)}`.padStart(12),
      `429s(own) ${row.result.rateLimited}`.padStart(14),
      `429s(server) ${row.serverRateLimited}`.padStart(17),
      `ok ${row.result.succeeded}`.padStart(7),
      `failed ${row.result.failed}`.padStart(10),
    ].join('  '),
  );
  const at = row.result.rateLimitedAt;
  if (at !== undefined && at.length > 0) {
    // Own 429s per window of the run: the first window's burst cannot know about traffic it has not met yet.
    const perWindow: number[] = [];
    for (const time of at) {
      const window = Math.floor((time - row.result.startedAt) / WINDOW_MS);
      perWindow[window] = (perWindow[window] ?? 0) + 1;
    }
    console.log(`${''.padEnd(36)}own 429s by ${WINDOW_MS / 1000} s window of the run: ${Array.from(perWindow, (count) => count ?? 0).join(', ')}`);
  }
}

console.log(`Pacing benchmark: limit ${LIMIT} mutations per ${WINDOW_MS / 1000} s window, heavy-tailed latency, loopback HTTP (node ${process.version})\n`);
/** Scenarios to run: all by default, or those named on the command line (e.g. `a c`). */
const only = new Set(process.argv.slice(2));
const wanted = (scenario: string): boolean => only.size === 0 || only.has(scenario);
const heavy = LIMIT * 10;
const burst = Math.floor(LIMIT * 0.75);

if (wanted('a')) {
  await measure('(a) 10x the limit, one process', 'sdk', heavy, 1, (url) => runSdk(url, heavy));
  await measure('(a) 10x the limit, one process', 'naive', heavy, 1, (url) => runNaive(url, heavy));
}
if (wanted('b')) {
  await measure('(b) burst of 0.75x the limit', 'sdk', burst, 1, (url) => runSdk(url, burst));
  await measure('(b) burst of 0.75x the limit', 'naive', burst, 1, (url) => runNaive(url, burst));
}
if (wanted('c')) {
  const redis = await startRedisServer();
  try {
    await measure('(c) two processes, Redis store', 'sdk', heavy, 1, (url) => twoProcesses('sdk', url, heavy, redis.url));
    await measure('(c) two processes (no sharing)', 'naive', heavy, 1, (url) => twoProcesses('naive', url, heavy, redis.url));
  } finally {
    await redis.stop();
  }
}
if (wanted('d')) {
  const ours = LIMIT * 5;
  await measure('(d) foreign client, half the budget', 'sdk', ours, 0.5, (url) => withForeign(url, () => runSdk(url, ours)));
  await measure('(d) foreign client, half the budget', 'naive', ours, 0.5, (url) => withForeign(url, () => runNaive(url, ours)));
}
console.log('\nratio = completion time / theoretical minimum ((ceil(n / budget) - 1) windows + one median round trip).');
console.log('429s(own) = 429 answers the measured client received; 429s(server) = all 429s the server sent (foreign traffic included).');
