/**
 * Runs one cell of the Redis tenants benchmark in its own process and prints its result as one JSON
 * line: `node --expose-gc --import tsx bench/tenants-redis/cell-worker.ts '<spec>'`.
 */
import { loadavg } from 'node:os';
import type { AdminClient } from '../../src/client/facade/admin-client.js';
import type { PermitStore } from '../../src/rate-limit/permit-store.js';
import type { CellResult, CellSpec } from './cell.js';
// The same fake API as bench:tenants (issue 28's memory-store legs), so the two benches' figures compare.
import { bareCall, fakeApi, type FakeApi } from '../tenants/fake-api.js';
import { jobFigures, recordRequests } from '../tenants/lateness.js';
import { startEach, startOffsets } from '../tenants/starts.js';
import { LEGS, type OpenLeg, type RedisCounters } from './legs.js';
import { loadSdk, type BenchSdk } from './sdk.js';

const BASE_URL = 'https://school.example';
const ENDPOINT = `${BASE_URL}/admin/graphql`;
const COUPON_ID = 'c0000000-0000-4000-8000-000000000001';
const BARE_GRANT = 'mutation Grant($couponId: ID!, $userId: ID) { createCouponGrant(couponId: $couponId, userId: $userId) { created } }';
const WARM_KEYS = 20;
/** How long after a burst the heap is read a second time. */
const LATER_MS = 8_000;

const spec = JSON.parse(process.argv[2] ?? '') as CellSpec;
const leg = LEGS[spec.leg];
if (leg === undefined) throw new Error(`Failed to run the cell: no leg named ${spec.leg}.`);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('Failed to run the cell: run it with node --expose-gc.');

/** V8 heap used plus array buffers, after a full GC. */
function memory(): number {
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const members = Array.from({ length: spec.jobPerKey }, (_, index) => ({ userId: `member-${index}` }));
const keyNames = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, index) => `sk_live_${prefix}_${index}_${spec.leg}_0123456789abcdef`);

function clientsFor(sdk: BenchSdk, keys: readonly string[], api: FakeApi, store: PermitStore, budget: { limit: number; windowMs: number }): AdminClient[] {
  return keys.map((apiKey) => new sdk.AdminClient({ apiKey, baseUrl: BASE_URL, fetch: api.fetch, limits: { mutations: budget, store } }) as unknown as AdminClient);
}

/** Every key's job, each after its offset (none: all at once): each key's start and end (performance.now()), and the failures. */
async function sdkJobs(clients: readonly AdminClient[], offsetsMs?: readonly number[]): Promise<{ starts: number[]; ends: number[]; failed: number; errors: Set<string> }> {
  let failed = 0;
  const errors = new Set<string>();
  const times = await startEach(clients, offsetsMs, async (admin) => {
    await Promise.all(
      members.map((member) =>
        admin.grantCoupon(COUPON_ID, member).catch((error: unknown) => {
          failed += 1;
          errors.add(error instanceof Error ? `${error.name}: ${error.message.slice(0, 120)}` : String(error));
        }),
      ),
    );
  });
  return { ...times, failed, errors };
}

async function bareJobs(api: FakeApi, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((key) => Promise.all(members.map((member) => bareCall(api.fetch, ENDPOINT, key, BARE_GRANT, { couponId: COUPON_ID, ...member })))));
}

async function timed<T>(run: () => Promise<T>, calls: number): Promise<{ perSecond: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { perSecond: (calls * 1000) / (performance.now() - started), value };
}

async function warmUp(sdk: BenchSdk, open: OpenLeg): Promise<void> {
  const keys = keyNames('warm', WARM_KEYS);
  const api = fakeApi(keys, 0, spec.delayMs);
  api.recording = false;
  const clients = clientsFor(sdk, keys, api, open.store(), { limit: 1_000_000, windowMs: 1_000 });
  for (let round = 0; round < 3; round += 1) {
    await bareJobs(api, keys);
    await Promise.all(clients.map((admin) => Promise.all(members.map((member) => admin.grantCoupon(COUPON_ID, member)))));
  }
}

/**
 * Waits until Redis ran no script for 300 ms: a call resolves before its permit's release reaches
 * Redis (the release is sent without waiting), so releases may still be on their way.
 */
async function settled(counters: Counters): Promise<void> {
  for (let last = -1, now = (await counters.read()).scripts; now !== last; last = now, now = (await counters.read()).scripts) await sleep(300);
}

/** Redis's counters, read through here so that the reads of the readings themselves are known. */
class Counters {
  #readings = 0;
  #start: RedisCounters | undefined;
  constructor(readonly open: OpenLeg) {}

  async read(): Promise<RedisCounters> {
    this.#readings += 1;
    return this.open.counters();
  }

  /** Starts counting from now. */
  async start(): Promise<void> {
    this.#start = await this.read();
    this.#readings = 0;
  }

  /** Growth since {@link start}, less the reads of the readings made since (one per master each). */
  async grown(): Promise<RedisCounters> {
    const now = await this.read();
    const start = this.#start ?? now;
    return { reads: now.reads - start.reads - this.#readings * this.open.masters, scripts: now.scripts - start.scripts };
  }
}

function report(errors: Set<string>): void {
  for (const error of errors) process.stderr.write(`  failed call: ${error}\n`);
}

async function burstCell(sdk: BenchSdk, open: OpenLeg, keys: readonly string[]): Promise<Omit<CellResult, 'spec' | 'load'>> {
  const calls = keys.length * spec.jobPerKey;
  const api = fakeApi(keys, 2 * calls, spec.delayMs);
  const bare: number[] = [];
  api.recording = false;
  bare.push((await timed(() => bareJobs(api, keys), calls)).perSecond);
  api.recording = true;
  const clients = clientsFor(sdk, keys, api, open.store(), { limit: spec.budget, windowMs: spec.windowMs });
  const idle = memory();
  const counters = new Counters(open);
  await counters.start();
  const started = performance.now();
  const first = await timed(() => sdkJobs(clients), calls);
  await settled(counters);
  const counted = memory();
  if (performance.now() - started > spec.windowMs) process.stderr.write(`  the first round took longer than the window: some requests no longer counted when the heap was read\n`);
  // Read again once what the calls left behind for a few seconds is gone (node-redis's per-command
  // timeout: an AbortSignal.timeout of 5 s each, freed some seconds after it fires), while every
  // request of the round still counts; undefined when the window is too short for it.
  const laterAt = started + spec.windowMs - 1_000;
  let countedLater: number | undefined;
  if (performance.now() + LATER_MS < laterAt) {
    await sleep(LATER_MS);
    countedLater = memory();
  }
  // Every count ends a window after its answer.
  await sleep(Math.max(0, api.answers.last + spec.windowMs + 100 - performance.now()));
  const second = await timed(() => sdkJobs(clients), calls);
  await settled(counters);
  const used = await counters.grown();
  api.recording = false;
  bare.push((await timed(() => bareJobs(api, keys), calls)).perSecond);
  report(new Set([...first.value.errors, ...second.value.errors]));
  const permits = 2 * calls - first.value.failed - second.value.failed;
  return {
    sdkCallsPerSecond: [first.perSecond, second.perSecond],
    bareCallsPerSecond: bare,
    heapPerCounted: (counted - idle) / calls,
    heapPerCountedLater: countedLater === undefined ? undefined : (countedLater - idle) / calls,
    jobs: undefined,
    roundTripsPerPermit: used.reads / permits,
    scriptCallsPerPermit: used.scripts / permits,
    overLimit: api.overLimit(spec.budget, spec.windowMs),
    failed: first.value.failed + second.value.failed,
  };
}

async function pacedCell(sdk: BenchSdk, open: OpenLeg, keys: readonly string[]): Promise<Omit<CellResult, 'spec' | 'load'>> {
  const calls = keys.length * spec.jobPerKey;
  const api = fakeApi(keys, calls, spec.delayMs);
  const clients = clientsFor(sdk, keys, api, open.store(), { limit: spec.budget, windowMs: spec.windowMs });
  const requests = clients.map(recordRequests);
  const counters = new Counters(open);
  await counters.start();
  const started = performance.now();
  const { starts, ends, failed, errors } = await sdkJobs(clients, startOffsets(spec.start, keys.length, spec.windowMs));
  const wallMs = performance.now() - started;
  await settled(counters);
  const used = await counters.grown();
  report(errors);
  // Every request of a key at once (no concurrency of its app's): the bound's callers are unbounded.
  const jobs = jobFigures({ requests, starts, ends }, { limit: spec.budget, windowMs: spec.windowMs }, wallMs);
  return {
    sdkCallsPerSecond: [(calls * 1000) / wallMs],
    bareCallsPerSecond: [],
    heapPerCounted: undefined,
    heapPerCountedLater: undefined,
    jobs,
    roundTripsPerPermit: used.reads / (calls - failed),
    scriptCallsPerPermit: used.scripts / (calls - failed),
    overLimit: api.overLimit(spec.budget, spec.windowMs),
    failed,
  };
}

const loadAtStart = loadavg()[0] ?? 0;
const sdk = await loadSdk(spec.build);
const open = await leg.open(sdk);
try {
  await warmUp(sdk, open);
  const keys = keyNames('tenant', spec.keys);
  const figures = spec.kind === 'burst' ? await burstCell(sdk, open, keys) : await pacedCell(sdk, open, keys);
  const result: CellResult = { spec, ...figures, load: [loadAtStart, loadavg()[0] ?? 0] };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await open.close();
}
process.exit(0);
