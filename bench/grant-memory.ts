/**
 * Memory benchmark of `grantCouponToMany` (issue 5): 20,000 members streamed from an async
 * generator, with a journal, against the simulator in its own process (scaled window: 200 grants
 * per 100 ms). Prints the peak RSS up to 2,000 members done and up to 20,000 done, and their
 * ratio, which must stay within 1.3 (memory flat: the input is never materialised and at most
 * `concurrency` grants are in flight; only the journal's index of short member keys grows).
 *
 * Run: npm run bench:grant-memory   (exit status 1 when the ratio is above 1.3, or when a member
 * is not granted exactly once). The job runs at concurrency 200 (the budget's limit; the job's default is 64);
 * BENCH_CONCURRENCY=N overrides it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient } from '../src/index.js';
import { RssPeaks } from './grant-memory/rss-peaks.js';
import { startBenchServer } from './grant-memory/remote-server.js';
import { benchMemberEmail, BUDGET, EARLY_CHECKPOINT, MAX_RATIO, MEMBERS } from './grant-memory/setup.js';

const MIB = 1024 * 1024;

async function* members(count: number): AsyncGenerator<{ email: string }> {
  for (let index = 0; index < count; index += 1) yield { email: benchMemberEmail(index) };
}

const server = await startBenchServer();
const dir = await mkdtemp(join(tmpdir(), 'grant-memory-'));
try {
  const admin = new AdminClient({ apiKey: server.apiKey, baseUrl: server.url, limits: { mutations: BUDGET } });
  const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? BUDGET.limit);
  const peaks = new RssPeaks(EARLY_CHECKPOINT);
  const startRss = process.memoryUsage.rss();
  const summary = await admin.grantCouponToMany(server.couponId, members(MEMBERS), {
    journal: join(dir, 'grants.journal'),
    total: MEMBERS,
    concurrency,
    onProgress: (progress) => peaks.progress(progress.done),
  });
  peaks.stop();
  const grants = await server.grants();
  const ratio = peaks.overall / peaks.early;
  const mib = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`;
  console.log(`grantCouponToMany: ${MEMBERS} streamed members, journal on, budget ${BUDGET.limit} per ${BUDGET.windowMs} ms, concurrency ${concurrency}`);
  console.log(`  outcomes: ${JSON.stringify(summary.counts)} in ${(summary.durationMs / 1000).toFixed(1)} s`);
  console.log(`  server: ${grants.members} members hold a grant, at most ${grants.most} each`);
  console.log(`  RSS at start:                      ${mib(startRss)}`);
  console.log(`  peak RSS up to ${EARLY_CHECKPOINT} members done:   ${mib(peaks.early)}`);
  console.log(`  peak RSS up to ${MEMBERS} members done:  ${mib(peaks.overall)}`);
  console.log(`  ratio: ${ratio.toFixed(3)} (must be <= ${MAX_RATIO})`);
  const complete = summary.counts.created === MEMBERS && grants.members === MEMBERS && grants.most === 1;
  if (!complete) console.log('  FAILED: not every member was granted exactly once');
  if (ratio > MAX_RATIO) console.log('  FAILED: memory grew with the number of members');
  process.exitCode = complete && ratio <= MAX_RATIO ? 0 : 1;
} finally {
  await rm(dir, { recursive: true, force: true });
  await server.close();
}
