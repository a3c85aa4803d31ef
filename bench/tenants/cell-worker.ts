/**
 * Runs one cell of the tenants benchmark in its own process (node --expose-gc) and prints its
 * result as one JSON line: `node --expose-gc --import tsx bench/tenants/cell-worker.ts '<spec>'`.
 */
import { loadavg } from 'node:os';
import type { AdminClient } from '../../src/client/facade/admin-client.js';
import type { PermitStore } from '../../src/rate-limit/permit-store.js';
import type { CellResult, CellSpec, HeapFigures } from './cell.js';
import { bareCall, fakeApi, type FakeApi } from './fake-api.js';
import { jobFigures, recordRequests } from './lateness.js';
import { LEGS } from './legs/index.js';
import type { OpenLeg } from './legs/leg.js';
import { loadSdk, type BenchSdk } from './sdk.js';
import { startEach, startOffsets } from './starts.js';

const BASE_URL = 'https://school.example';
const ENDPOINT = `${BASE_URL}/admin/graphql`;
const COUPON_ID = 'c0000000-0000-4000-8000-000000000001';
const WARM_KEYS = 20;
/**
 * Calls of each client the warm-up makes before anything is measured: enough for the engine to
 * have optimised the call path, so that its compiled code is not counted as the clients' heap.
 */
const WARM_CALLS = 20_000;

const spec = JSON.parse(process.argv[2] ?? '') as CellSpec;
const leg = LEGS[spec.leg];
if (leg === undefined) throw new Error(`Failed to run the cell: no leg named ${spec.leg}.`);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('Failed to run the cell: run it with node --expose-gc.');

/**
 * V8 heap used plus array buffers (memory a store may hold outside V8's heap), after full GCs with
 * the event loop turning between them (heap used read at once after one GC still counted garbage
 * not swept yet: 0.1 KB per counted request more in a scratch run).
 */
async function memory(): Promise<{ total: number; buffers: number }> {
  for (let round = 0; round < 3; round += 1) {
    gc?.();
    await sleep(30);
  }
  const usage = process.memoryUsage();
  return { total: usage.heapUsed + usage.arrayBuffers, buffers: usage.arrayBuffers };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const members = Array.from({ length: spec.jobPerKey }, (_, index) => ({ userId: `member-${index}` }));
/**
 * Calls in flight per key, as an app's job runner (or grantCouponToMany, 64 by default) keeps them:
 * 200 at once for each of 1,000 keys would hold 200,000 answers in memory at once, the bare client's
 * as much as the SDK's.
 */
const CONCURRENCY_PER_KEY = 20;

/** Runs `call` for every member, `CONCURRENCY_PER_KEY` at a time; counts the failures. */
async function eachMember(call: (member: { userId: string }) => Promise<unknown>): Promise<number> {
  let next = 0;
  let failed = 0;
  const worker = async (): Promise<void> => {
    while (next < members.length) {
      const member = members[next++] as { userId: string };
      await call(member).catch(() => void (failed += 1));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY_PER_KEY, members.length) }, worker));
  return failed;
}

function clientsFor(sdk: BenchSdk, keys: readonly string[], api: FakeApi, store: PermitStore | undefined, budget: { limit: number; windowMs: number }): AdminClient[] {
  const limits = { mutations: budget, ...(store === undefined ? {} : { store }) };
  return keys.map((apiKey) => new sdk.AdminClient({ apiKey, baseUrl: BASE_URL, fetch: api.fetch, limits }) as unknown as AdminClient);
}

/**
 * Every key's job, each after its offset (none: all at once); resolves with each key's start and
 * end (performance.now()) and the failed calls.
 */
async function sdkJobs(clients: readonly AdminClient[], offsetsMs?: readonly number[]): Promise<{ starts: number[]; ends: number[]; failed: number }> {
  let failed = 0;
  const times = await startEach(clients, offsetsMs, async (admin) => void (failed += await eachMember((member) => admin.grantCoupon(COUPON_ID, member))));
  return { ...times, failed };
}

async function bareJobs(api: FakeApi, keys: readonly string[]): Promise<number> {
  const document = String(sdk.OPERATIONS.createCouponGrant.document);
  const failures = await Promise.all(keys.map((key) => eachMember((member) => bareCall(api.fetch, ENDPOINT, key, document, { couponId: COUPON_ID, ...member }))));
  return failures.reduce((sum, failed) => sum + failed, 0);
}

async function timed<T>(run: () => Promise<T>, calls: number): Promise<{ perSecond: number; value: T }> {
  const started = performance.now();
  const value = await run();
  return { perSecond: (calls * 1000) / (performance.now() - started), value };
}

/** Loads the code paths of both clients (JIT) on keys of their own, with a store of their own. */
async function warmUp(sdk: BenchSdk, open: OpenLeg): Promise<void> {
  const keys = Array.from({ length: WARM_KEYS }, (_, index) => `sk_live_tenants_warm_${index}_0123456789abcdef`);
  const api = fakeApi(keys, 0, spec.delayMs);
  api.recording = false;
  // A budget that never binds: the warm-up loads code, it does not wait.
  const clients = clientsFor(sdk, keys, api, open.store(), { limit: 1_000_000, windowMs: 1_000 });
  const rounds = Math.max(3, Math.ceil(WARM_CALLS / (keys.length * members.length)));
  for (let round = 0; round < rounds; round += 1) {
    await bareJobs(api, keys);
    await Promise.all(clients.map((admin) => eachMember((member) => admin.grantCoupon(COUPON_ID, member))));
  }
}

/**
 * The most calls a cell's alternating throughput rounds make together (a larger cell makes fewer
 * rounds, or none): three rounds of the 1,000 x 200 cell (200,000 calls each, about 3 minutes).
 * Until 2026-11-29 it was 60,000, and that cell was judged by its heap rounds alone, against bare
 * rounds run minutes before and after it (a bare round varies by up to 1.5x between two rounds).
 */
const ALTERNATING_CALLS = 600_000;
const ALTERNATING_ROUNDS = 3;

/**
 * Calls per second, SDK against bare fetch, in rounds that alternate (bare, SDK, bare, SDK, ...,
 * bare): on a shared machine one bare round ran 6 times faster than the next, so each SDK round is
 * compared with the bare rounds just before and after it. Every SDK round is every key granting
 * its full budget at once with fresh clients and a fresh store (keys of their own per round, so
 * a shared store such as Redis starts each round empty too): every call within its key's budget.
 */
async function alternatingRounds(sdk: BenchSdk, open: OpenLeg, keys: readonly string[]): Promise<{ sdk: number[]; bare: number[] } | undefined> {
  const calls = keys.length * spec.jobPerKey;
  const rounds = Math.min(ALTERNATING_ROUNDS, Math.floor(ALTERNATING_CALLS / calls));
  if (rounds === 0) return undefined;
  const api = fakeApi(keys, 0, spec.delayMs);
  api.recording = false;
  const out = { sdk: [] as number[], bare: [] as number[] };
  out.bare.push((await timed(() => bareJobs(api, keys), calls)).perSecond);
  for (let round = 0; round < rounds; round += 1) {
    const roundKeys = keys.map((key) => `${key}_round${round}`);
    const clients = clientsFor(sdk, roundKeys, api, open.store(), { limit: spec.budget, windowMs: spec.windowMs });
    out.sdk.push((await timed(() => sdkJobs(clients), calls)).perSecond);
    out.bare.push((await timed(() => bareJobs(api, keys), calls)).perSecond);
  }
  return out;
}

async function burstCell(sdk: BenchSdk, open: OpenLeg, keys: readonly string[]): Promise<Omit<CellResult, 'spec' | 'load'>> {
  const calls = keys.length * spec.jobPerKey;
  const api = fakeApi(keys, 2 * calls, spec.delayMs);
  const bare: number[] = [];
  api.recording = false;
  bare.push((await timed(() => bareJobs(api, keys), calls)).perSecond);
  api.recording = true;
  const store = open.store();
  const before = await memory();
  const clients = clientsFor(sdk, keys, api, store, { limit: spec.budget, windowMs: spec.windowMs });
  const idle = await memory();
  api.resetAnswers();
  const first = await timed(() => sdkJobs(clients), calls);
  const counted = await memory();
  const measuredAfterFirstAnswerMs = performance.now() - api.answers.first;
  // Every count ends a window after its answer; then the store may forget the keys.
  await sleep(Math.max(0, api.answers.last + spec.windowMs + 50 - performance.now()));
  await open.sweep?.(store);
  const usedIdle = await memory();
  const second = await timed(() => sdkJobs(clients), calls);
  api.recording = false;
  bare.push((await timed(() => bareJobs(api, keys), calls)).perSecond);
  const alternating = await alternatingRounds(sdk, open, keys);
  const heap: HeapFigures = {
    freshIdlePerClient: (idle.total - before.total) / keys.length,
    usedIdlePerClient: (usedIdle.total - before.total) / keys.length,
    perCounted: (counted.total - idle.total) / calls,
    perCountedVsUsedIdle: (counted.total - usedIdle.total) / calls,
    counted: calls,
    measuredAfterFirstAnswerMs,
    buffersPerCounted: (counted.buffers - idle.buffers) / calls,
  };
  return {
    sdkCallsPerSecond: [first.perSecond, second.perSecond],
    bareCallsPerSecond: bare,
    alternating,
    heap,
    jobs: undefined,
    overLimit: api.overLimit(spec.budget, spec.windowMs),
    failed: first.value.failed + second.value.failed,
  };
}

async function pacedCell(sdk: BenchSdk, open: OpenLeg, keys: readonly string[]): Promise<Omit<CellResult, 'spec' | 'load'>> {
  const calls = keys.length * spec.jobPerKey;
  const api = fakeApi(keys, calls, spec.delayMs);
  const store = open.store();
  const clients = clientsFor(sdk, keys, api, store, { limit: spec.budget, windowMs: spec.windowMs });
  const requests = clients.map(recordRequests);
  const offsets = startOffsets(spec.start, keys.length, spec.windowMs);
  const started = performance.now();
  const { starts, ends, failed } = await sdkJobs(clients, offsets);
  const wallMs = performance.now() - started;
  const jobs = jobFigures({ requests, starts, ends }, { limit: spec.budget, windowMs: spec.windowMs, concurrency: CONCURRENCY_PER_KEY }, wallMs);
  return {
    sdkCallsPerSecond: [(calls * 1000) / wallMs],
    bareCallsPerSecond: [],
    alternating: undefined,
    heap: undefined,
    jobs,
    overLimit: api.overLimit(spec.budget, spec.windowMs),
    failed,
  };
}

const loadAtStart = loadavg()[0] as number;
const sdk = await loadSdk(spec.dist);
const open = await leg.open(sdk);
try {
  await warmUp(sdk, open);
  // The keys (the app's strings) exist before anything is measured.
  const keys = Array.from({ length: spec.keys }, (_, index) => `sk_live_tenant_${index}_${'0123456789abcdef'.repeat(2)}`);
  const figures = spec.kind === 'burst' ? await burstCell(sdk, open, keys) : await pacedCell(sdk, open, keys);
  const result: CellResult = { spec, ...figures, load: [loadAtStart, loadavg()[0] as number] };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  await open.close();
}
process.exit(0);
