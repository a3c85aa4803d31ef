/**
 * The QoS rows of issue 13 (`npm run bench:qos -- same-client burst ...`): one budget for
 * interactive calls and bulk work. Against the simulator in its own process (50 mutations per 3 s,
 * strict sliding window, latency 5-80 ms each way), a bulk job of 500 grants runs while one
 * interactive call (updateCoupon / enrollStudent) is made every 500 ms on the same key. Prints, per
 * scenario, the interactive latencies against the median round trip, the bulk job's time against
 * the safe bound for all mutations sent, and the 429s. `baseline` rows run the SDK as of 9852450
 * (bottleneck queue, no lanes) in the same run. Scenarios: same-client, burst, burst-unmarked,
 * two-processes, reserve, sparse (`--baseline`, `--repeat N`, `--reserves 0,1,2,4`).
 */
import { startRedisServer } from '../../test/support/redis-server.js';
import { startBenchProcess, type BenchProcess } from '../support/remote-simulator.js';
import { medianRoundTrip } from '../support/round-trip.js';
import { baselineUnavailable, importSdk, type SdkModule, type SdkVersion } from '../support/sdk-versions.js';
import { DEFAULTS } from '../../src/index.js';
import type { SimulatorStats } from '../../src/testing/index.js';
import { benchClient, runBulk, startInteractive, type BulkKind, type ProcessRun } from './runners.js';
import { BULK_CALLS, INTERACTIVE_EVERY_MS, LIMIT, percentile, safeBoundMs, WINDOW_MS, type QosServerHello } from './setup.js';

interface Row {
  scenario: string;
  version: SdkVersion;
  reserve: number | undefined;
  /** Median of the probes before the run (queries on an idle server). */
  probeRoundTripMs: number;
  runs: ProcessRun[];
  serverRateLimited: number;
}

/** The issue 13 scenarios that `bench/qos.ts` accepts by name. */
export const ISSUE_13_SCENARIOS = ['same-client', 'burst', 'burst-unmarked', 'two-processes', 'reserve', 'sparse'] as const;

/** How to run the issue 13 rows (`bench/qos.ts` reads them from its command line). */
export interface Issue13Options {
  /** The scenarios to run (ISSUE_13_SCENARIOS). */
  named: readonly string[];
  /** Also run the SDK of 9852450 in the same run. */
  withBaseline: boolean;
  repeat: number;
  /** The interactiveReserve values of the `reserve` and `sparse` rows. */
  reserves: readonly number[];
}

/** The SDK's default (DEFAULTS.interactiveReserveShare of the limit) unless a row says otherwise. */
const DEFAULT_RESERVE = undefined;

async function withServer<T>(body: (server: BenchProcess<QosServerHello>) => Promise<T>): Promise<T> {
  const server = await startBenchProcess<QosServerHello>('bench/qos/server-process.ts');
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

async function oneProcess(scenario: string, version: SdkVersion, bulk: BulkKind, reserve: number | undefined, interactiveEveryMs = INTERACTIVE_EVERY_MS): Promise<void> {
  const sdk = await importSdk<SdkModule>(version, 'index.ts');
  await withServer(async (server) => {
    const { url, meetingId } = server.hello;
    const probeRoundTripMs = await medianRoundTrip(url, 15);
    const { admin, run } = benchClient(sdk, url, new sdk.MemoryPermitStore(), version === 'current' ? reserve : undefined);
    const interactive = startInteractive(admin, run, meetingId, interactiveEveryMs);
    await runBulk(admin, run, bulk);
    await interactive.stop();
    const stats = await server.ask<SimulatorStats>('stats');
    report({ scenario, version, reserve: version === 'current' ? reserve : undefined, probeRoundTripMs, runs: [run], serverRateLimited: stats.rateLimited.mutations });
  });
}

async function twoProcesses(scenario: string, version: SdkVersion, reserve: number | undefined, redisUrl: string): Promise<void> {
  await withServer(async (server) => {
    const { url, meetingId } = server.hello;
    const probeRoundTripMs = await medianRoundTrip(url, 15);
    const reserveArgument = version === 'current' && reserve !== undefined ? String(reserve) : '-';
    const worker = (role: string) => startBenchProcess<{ ready: boolean }>('bench/qos/worker.ts', [role, version, url, meetingId, redisUrl, reserveArgument]);
    const [bulk, interactive] = await Promise.all([worker('bulk'), worker('interactive')]);
    try {
      const bulkDone = bulk.ask<ProcessRun>('go');
      await interactive.ask('go');
      const bulkRun = await bulkDone;
      const interactiveRun = await interactive.ask<ProcessRun>('stop');
      const stats = await server.ask<SimulatorStats>('stats');
      report({ scenario, version, reserve: version === 'current' ? reserve : undefined, probeRoundTripMs, runs: [bulkRun, interactiveRun], serverRateLimited: stats.rateLimited.mutations });
    } finally {
      await Promise.all([bulk.close(), interactive.close()]);
    }
  });
}

function report(row: Row): void {
  const interactiveMs = row.runs.flatMap((run) => run.interactiveMs);
  const started = Math.min(...row.runs.flatMap((run) => (run.bulkStartedAt === undefined ? [] : [run.bulkStartedAt])));
  const finished = Math.max(...row.runs.flatMap((run) => (run.bulkFinishedAt === undefined ? [] : [run.bulkFinishedAt])));
  const sent = row.runs.flatMap((run) => run.sentAt).filter((at) => at <= finished).length;
  const bulkMs = finished - started;
  // The median round trip of the mutations sent in the run (hundreds of samples, under the same load).
  const roundTripMs = percentile(row.runs.flatMap((run) => run.roundTripMs), 50);
  const bound = safeBoundMs(sent, roundTripMs);
  const p50 = percentile(interactiveMs, 50);
  const p95 = percentile(interactiveMs, 95);
  const failed = row.runs.reduce((sum, run) => sum + run.bulkFailed + run.interactiveFailed, 0);
  const ownRateLimited = row.runs.reduce((sum, run) => sum + run.rateLimited, 0);
  console.log(
    [
      row.scenario.padEnd(26),
      row.version.padEnd(8),
      `reserve ${row.version === 'baseline' ? '-' : (row.reserve ?? `${DEFAULTS.interactiveReserveShare * 100}%`)}`.padEnd(9),
      `rtt ${roundTripMs.toFixed(0)} ms (probe ${row.probeRoundTripMs.toFixed(0)})`.padStart(22),
      `interactive n=${interactiveMs.length}`.padEnd(16),
      `p50 ${p50.toFixed(0)} ms (${(p50 / roundTripMs).toFixed(2)}x)`.padStart(21),
      `p95 ${p95.toFixed(0)} ms (${(p95 / roundTripMs).toFixed(2)}x)`.padStart(21),
      `max ${percentile(interactiveMs, 100).toFixed(0)} ms`.padStart(12),
      `bulk ${(bulkMs / 1000).toFixed(2)} s`.padStart(12),
      `bound ${(bound / 1000).toFixed(2)} s (${sent} sent)`.padStart(24),
      `ratio ${(bulkMs / bound).toFixed(3)}`.padStart(11),
      `429s ${ownRateLimited}/${row.serverRateLimited}`.padStart(10),
      `failed ${failed}`.padStart(9),
    ].join('  '),
  );
}

/**
 * The rows of issue 13 (50 per 3 s, 500 bulk grants, one interactive call every 500 ms), with the
 * SDK of 9852450 side by side when asked.
 */
export async function runIssue13(options: Issue13Options): Promise<void> {
  const wanted = (scenario: string): boolean => options.named.includes(scenario);
  const baselineProblem = options.withBaseline ? baselineUnavailable() : undefined;
  if (baselineProblem !== undefined) console.log(`(baseline rows skipped: ${baselineProblem})`);
  const versions: SdkVersion[] = options.withBaseline && baselineProblem === undefined ? ['current', 'baseline'] : ['current'];

  console.log(
    `QoS benchmark: ${BULK_CALLS} bulk grants + one interactive call every 500 ms; limit ${LIMIT} mutations per ${WINDOW_MS / 1000} s, latency 5-80 ms each way (node ${process.version})\n`,
  );
  for (let round = 0; round < options.repeat; round += 1) {
    for (const version of versions) {
      if (wanted('same-client')) await oneProcess('same client, grantToMany', version, 'grant-to-many', DEFAULT_RESERVE);
      if (wanted('burst')) await oneProcess('same client, 500 at once', version, 'burst-background', DEFAULT_RESERVE);
      if (wanted('burst-unmarked')) await oneProcess('500 at once, unmarked', version, 'burst-unmarked', DEFAULT_RESERVE);
      if (wanted('two-processes')) {
        const redis = await startRedisServer();
        try {
          await twoProcesses('two processes, Redis', version, DEFAULT_RESERVE, redis.url);
        } finally {
          await redis.stop();
        }
      }
    }
    if (wanted('sparse')) {
      // Light interactive traffic: every half window (always present), and one call per window.
      for (const reserve of options.reserves) await oneProcess('sparse, every 1.5 s', 'current', 'grant-to-many', reserve, WINDOW_MS / 2);
      for (const reserve of options.reserves) await oneProcess('sparse, every 3 s', 'current', 'grant-to-many', reserve, WINDOW_MS);
    }
    if (wanted('reserve')) {
      for (const reserve of options.reserves) await oneProcess('same client, grantToMany', 'current', 'grant-to-many', reserve);
    }
  }
  console.log('\nrtt: median round trip of the mutations sent in the run (probe: median of 15 queries before it, idle server).');
  console.log('p50/p95: interactive latency from call to answer, and its ratio to the median round trip (target <= 1.5x and <= 3x).');
  console.log('bound: the least time for all mutations sent until the bulk job ended, a request counting until a window after its answer:');
  console.log('       (ceil(sent / limit) - 1) x (window + round trip) + round trip. ratio = bulk time / bound (target <= 1.02).');
  console.log('429s: received by the SDK / sent by the server.');
}
