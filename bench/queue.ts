/**
 * Queue benchmark (issue 13): what a call waiting for a rate-limit permit costs, how fast queued
 * calls leave once permits free, and what aborted waiters leave behind. Each figure is measured
 * for the current SDK and, side by side in the same run, for the SDK of 9852450 (bottleneck's
 * queue), when that can be loaded (`baseline`).
 *
 * Run: npm run bench:queue   (node --expose-gc)   [-- --no-baseline]
 */
import { spawn } from 'node:child_process';
import { once, setMaxListeners } from 'node:events';
import type { RateLimiter as CurrentRateLimiter } from '../src/rate-limit/limiter.js';
import { baselineUnavailable, importSdk, type SdkModule, type SdkVersion } from './support/sdk-versions.js';
import { cpuSince, heapAfterGc, sleep, stubClient } from './queue/stub-api.js';

type LimiterModule = { RateLimiter: typeof CurrentRateLimiter };
const QUEUED = 10_000;
/** bottleneck releases a queued call every 2-4 ms: the baseline's dispatch is timed on fewer calls. */
const BASELINE_DISPATCHED = 2_000;
const ABORT_ROUNDS = 20;
const ABORTED_PER_ROUND = 1_000;

const results: Record<string, Partial<Record<SdkVersion, string>>> = {};
function record(figure: string, version: SdkVersion, value: string): void {
  results[figure] = { ...results[figure], [version]: value };
  console.log(`  ${version.padEnd(8)} ${figure}: ${value}`);
}

async function limiterFor(version: SdkVersion, limit: number, windowMs: number): Promise<CurrentRateLimiter> {
  const { RateLimiter } = await importSdk<LimiterModule>(version, 'rate-limit/limiter.ts');
  const { MemoryPermitStore } = await importSdk<SdkModule>(version, 'index.ts');
  return new RateLimiter({
    store: new MemoryPermitStore(),
    buckets: { mutations: `queue-bench-${version}:mutations`, queries: `queue-bench-${version}:queries` },
    budgets: { mutations: { limit, windowMs }, queries: { limit, windowMs } },
    leaseMs: 60_000,
  });
}

/** Heap and CPU per queued permit request, and dispatch time per call once the window frees (limiter only). */
async function limiterQueue(version: SdkVersion): Promise<void> {
  const windowMs = 300;
  const dispatched = version === 'baseline' ? BASELINE_DISPATCHED : QUEUED;
  const limiter = await limiterFor(version, QUEUED, windowMs);
  // Warm up: load the queue's code (bottleneck is imported on the first queued call).
  const warm = await limiterFor(version, 1, 1);
  (await warm.acquire('mutations')).release();
  await warm.acquire('mutations').then((permit) => permit.release());

  const held = await Promise.all(Array.from({ length: QUEUED }, () => limiter.acquire('mutations')));
  const before = heapAfterGc();
  const cpuBefore = process.cpuUsage();
  const grantedAt: number[] = [];
  const queued = Array.from({ length: QUEUED }, (_, index) =>
    limiter.acquire('mutations').then((permit) => {
      if (index < dispatched) grantedAt.push(performance.now());
      return permit;
    }),
  );
  const enqueueCpu = cpuSince(cpuBefore);
  await sleep(20);
  const heapPerCall = (heapAfterGc() - before) / QUEUED;
  record(`limiter: heap per queued call at ${QUEUED.toLocaleString('en')} queued`, version, `${(heapPerCall / 1024).toFixed(2)} KB`);

  for (const permit of held) permit.release();
  const cpuDispatch = process.cpuUsage();
  while (grantedAt.length < dispatched) await sleep(5);
  const dispatchCpu = cpuSince(cpuDispatch);
  const first = Math.min(...grantedAt);
  const last = Math.max(...grantedAt);
  record(`limiter: dispatch per queued call (${dispatched.toLocaleString('en')} leaving)`, version, `${((last - first) / (dispatched - 1)).toFixed(3)} ms`);
  record('limiter: CPU per queued call (enqueue + dispatch)', version, `${(enqueueCpu / QUEUED + dispatchCpu / dispatched).toFixed(1)} µs`);
  if (version === 'current') for (const permit of await Promise.all(queued)) permit.release();
}

/** A signal shared by many calls on purpose (Node warns from 11 listeners on one signal). */
function sharedController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}

/** Heap per queued AdminClient call (the call's own frames and variables included), and its CPU from call to answer. */
async function clientQueue(version: SdkVersion): Promise<void> {
  const sdk = await importSdk<SdkModule>(version, 'index.ts');
  const windowMs = 300;
  const admin = stubClient(sdk, 1, 60_000, `sk_live_queue_bench_${version}`);
  await admin.grantCoupon('coupon-1', { userId: 'user-0' });
  const warmController = sharedController();
  const warm = admin.grantCoupon('coupon-1', { userId: 'warm' }, { signal: warmController.signal }).catch(() => undefined);
  warmController.abort();
  await warm;
  await sleep(20);
  const before = heapAfterGc();
  const cpuBefore = process.cpuUsage();
  const stop = sharedController();
  const calls = Array.from({ length: QUEUED }, (_, index) => admin.grantCoupon('coupon-1', { email: `member-${index}@school.example` }, { signal: stop.signal }).catch(() => undefined));
  const enqueueCpu = cpuSince(cpuBefore);
  await sleep(20);
  const heapPerCall = (heapAfterGc() - before) / QUEUED;
  record(`client: heap per queued grantCoupon at ${QUEUED.toLocaleString('en')} queued`, version, `${(heapPerCall / 1024).toFixed(2)} KB`);
  record('client: CPU to call and queue one grantCoupon', version, `${(enqueueCpu / QUEUED).toFixed(1)} µs`);
  stop.abort();
  await Promise.all(calls);

  // From call to answer: calls queued behind a spent budget, then sent as it frees (stub answers).
  const count = version === 'baseline' ? BASELINE_DISPATCHED : QUEUED;
  const paced = stubClient(sdk, count, windowMs, `sk_live_queue_bench_paced_${version}`);
  await Promise.all(Array.from({ length: count }, (_, index) => paced.grantCoupon('coupon-1', { userId: `first-${index}` })));
  const sentAt: number[] = [];
  paced.on('request', () => void sentAt.push(performance.now()));
  const cpuCalls = process.cpuUsage();
  await Promise.all(Array.from({ length: count }, (_, index) => paced.grantCoupon('coupon-1', { email: `member-${index}@school.example` })));
  const perCall = cpuSince(cpuCalls) / count;
  record(`client: CPU per queued grantCoupon, call to answer (${count.toLocaleString('en')} queued)`, version, `${perCall.toFixed(1)} µs`);
  record(`client: queued calls sent apart once the window frees (${count.toLocaleString('en')})`, version, `${((Math.max(...sentAt) - Math.min(...sentAt)) / (count - 1)).toFixed(3)} ms`);
}

/** 20 rounds of 1,000 calls aborted while waiting: heap afterwards, and the wait of the next call. */
async function abortedWaiters(version: SdkVersion): Promise<void> {
  const sdk = await importSdk<SdkModule>(version, 'index.ts');
  const windowMs = 500;
  const admin = stubClient(sdk, 1, windowMs, `sk_live_abort_bench_${version}`);
  await admin.grantCoupon('coupon-1', { userId: 'user-0' });
  const before = heapAfterGc();
  for (let round = 0; round < ABORT_ROUNDS; round += 1) {
    const controller = sharedController();
    const calls = Array.from({ length: ABORTED_PER_ROUND }, (_, index) =>
      admin.grantCoupon('coupon-1', { email: `member-${index}@school.example` }, { signal: controller.signal }).catch(() => undefined),
    );
    await sleep(1);
    controller.abort();
    await Promise.all(calls);
  }
  const after = heapAfterGc();
  record(`client: heap after ${ABORT_ROUNDS} x ${ABORTED_PER_ROUND.toLocaleString('en')} aborted waiters (vs before)`, version, `${((after - before) / 1024 / 1024).toFixed(2)} MB`);
  // The next call, made while the budget is spent: it should leave when the window frees.
  await sleep(windowMs);
  await admin.grantCoupon('coupon-1', { userId: 'spends-the-budget' });
  const answeredAt = performance.now();
  const waited = await Promise.race([admin.grantCoupon('coupon-1', { userId: 'next' }).then(() => performance.now() - answeredAt), sleep(20_000).then(() => Number.POSITIVE_INFINITY)]);
  record('client: next call after them, sent later than its window allows', version, Number.isFinite(waited) ? `${Math.max(0, waited - windowMs).toFixed(0)} ms` : 'still queued after 20 s');
}

/** How long a process stays alive after its last call settled (20 x 1,000 aborted waiters); `runs` processes. */
async function timeToExit(version: SdkVersion, runs: number): Promise<void> {
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/queue/exit-child.ts', version, String(ABORT_ROUNDS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await once(child, 'exit');
    const exitedAt = Date.now();
    times.push(exitedAt - (JSON.parse(output) as { settledAt: number }).settledAt);
  }
  times.sort((a, b) => a - b);
  const spread = times.length > 1 ? ` (${times.length} processes: ${times.join(', ')} ms)` : '';
  record(`process exit after the last settle (${ABORT_ROUNDS} x ${ABORTED_PER_ROUND.toLocaleString('en')} aborted)`, version, `${times[Math.floor(times.length / 2)]} ms${spread}`);
}

/**
 * For reading the client figures: the heap one suspended async function adds to a waiting call
 * (a generator, its registers, its promise and the reaction), from chains of 1 and 5 levels.
 */
async function asyncFrameCost(): Promise<void> {
  const resolvers: (() => void)[] = [];
  const leaf = async (): Promise<void> => new Promise<void>((resolve) => void resolvers.push(resolve));
  const chain = (levels: number): Promise<void> => (levels === 0 ? leaf() : (async () => await chain(levels - 1))());
  const heapOf = async (levels: number): Promise<number> => {
    const before = heapAfterGc();
    const pending = Array.from({ length: QUEUED }, () => chain(levels));
    const used = (heapAfterGc() - before) / QUEUED;
    for (const resolve of resolvers.splice(0)) resolve();
    await Promise.all(pending);
    return used;
  };
  const one = await heapOf(1);
  const five = await heapOf(5);
  record('reference: heap per suspended async function in a waiting call chain', 'current', `${((five - one) / 4).toFixed(0)} B`);
}

const problem = process.argv.includes('--no-baseline') ? 'not asked for' : baselineUnavailable();
const versions: SdkVersion[] = problem === undefined ? ['current', 'baseline'] : ['current'];
console.log(`Queue benchmark (node ${process.version})${problem === undefined ? '' : `; baseline skipped: ${problem}`}\n`);
for (const version of versions) {
  console.log(version === 'current' ? 'current SDK' : `baseline (9852450, bottleneck queue)`);
  await limiterQueue(version);
  await clientQueue(version);
  await abortedWaiters(version);
  await timeToExit(version, version === 'current' ? 5 : 1);
}
await asyncFrameCost();
console.log('\nSummary');
for (const [figure, values] of Object.entries(results)) console.log(`  ${figure.padEnd(72)} ${(values.current ?? '').padStart(12)}   ${values.baseline === undefined ? '' : `baseline ${values.baseline}`}`);
process.exit(0);
