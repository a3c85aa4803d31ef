import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { RateLimiter, type Permit } from '../../src/rate-limit/limiter.js';
import { MemoryPermitStore } from '../../src/rate-limit/memory-permit-store.js';
import type { AcquireRequest, AcquireResult, PermitStore } from '../../src/rate-limit/permit-store.js';

const KEY = 'sk_live_queue_asks_many';
const BUCKET = bucketName(KEY, 'mutations');
const WINDOW_MS = 150;

/** Date.now, or a moment held while `held` is set. */
class HoldableClock {
  held: number | undefined;
  readonly now = (): number => this.held ?? Date.now();
}

/** A memory store that counts how it was asked, and can hold its many-permit answers back. */
class CountingStore extends MemoryPermitStore {
  readonly clock: HoldableClock;
  single = 0;
  many: number[] = [];
  givenBack = 0;
  /** While set, a tryAcquireMany that grants every permit it was asked for waits for it before answering (and tells `onHeld`). */
  gate: Promise<void> | undefined;
  onHeld: (() => void) | undefined;
  /** While set, a tryAcquire that grants its permit waits for it before answering (and tells `onHeld`). */
  singleGate: Promise<void> | undefined;

  constructor(clock = new HoldableClock()) {
    super({ now: clock.now });
    this.clock = clock;
  }

  override async tryAcquire(request: AcquireRequest): Promise<AcquireResult> {
    this.single += 1;
    const result = await super.tryAcquire(request);
    if (this.singleGate !== undefined && result.granted) {
      this.onHeld?.();
      await this.singleGate;
    }
    return result;
  }

  override async tryAcquireMany(request: AcquireRequest, count: number): Promise<AcquireResult[]> {
    this.many.push(count);
    const results = await super.tryAcquireMany(request, count);
    if (this.gate !== undefined && results.filter((result) => result.granted).length === count) {
      this.onHeld?.();
      await this.gate;
    }
    return results;
  }

  override async giveBack(bucket: string, permitId: string): Promise<void> {
    this.givenBack += 1;
    return super.giveBack(bucket, permitId);
  }
}

function limiter(store: PermitStore, limit: number): RateLimiter {
  return new RateLimiter({
    store,
    buckets: { mutations: BUCKET, queries: bucketName(KEY, 'queries') },
    budgets: { mutations: { limit, windowMs: WINDOW_MS }, queries: { limit, windowMs: WINDOW_MS } },
    leaseMs: 5_000,
  });
}

/** Takes every permit as it comes and answers its request at once. */
const answered = (permit: Promise<Permit>): Promise<Permit> => permit.then((taken) => (taken.release(), taken));

describe('a queue of waiting calls asks the store for their permits together (one round trip to Redis per freed window, not one per permit)', () => {
  it('40 calls made at once under a budget of 10: a few store calls, not 40 (and 30 more asks)', async () => {
    const store = new CountingStore();
    const pacing = limiter(store, 10);
    const permits = await Promise.all(Array.from({ length: 40 }, () => answered(pacing.acquire('mutations', { priority: 'background' }))));
    expect(permits).toHaveLength(40);
    // The 40 made at once ask together (10 granted); each later window's 10 in one call, and an
    // ask that finds nothing free yet now and then. One ask per permit would be 40 or more. On a
    // loaded CPU a window's slots free a few ms apart: an ask may find only some of them free, and
    // the one call left then asks alone (13 asks with two busy loops beside the test, 4-10
    // without; CI once saw 2 of them alone).
    expect(store.many[0]).toBe(10);
    expect(store.single + store.many.length).toBeLessThanOrEqual(20);
  });

  it('calls made at once in each lane ask together per lane; a call made alone asks alone', async () => {
    const store = new CountingStore();
    const pacing = limiter(store, 20);
    const burst = [...Array.from({ length: 5 }, () => pacing.acquire('mutations')), ...Array.from({ length: 3 }, () => pacing.acquire('mutations', { priority: 'background' }))];
    for (const permit of await Promise.all(burst)) permit.release();
    expect(store.many).toEqual([5, 3]);
    (await pacing.acquire('mutations')).release();
    expect(store.single).toBe(1);
  });

  it('a store without tryAcquireMany is asked once per permit, and serves every call', async () => {
    const memory = new MemoryPermitStore();
    let asks = 0;
    const store: PermitStore = {
      tryAcquire: (request) => ((asks += 1), memory.tryAcquire(request)),
      release: (bucket, permitId, windowMs) => memory.release(bucket, permitId, windowMs),
      pause: (bucket, untilMs) => memory.pause(bucket, untilMs),
    };
    const permits = await Promise.all(Array.from({ length: 25 }, () => answered(limiter(store, 10).acquire('mutations'))));
    expect(permits).toHaveLength(25);
    expect(asks).toBeGreaterThanOrEqual(25 + 15);
  });

  it('permits granted for calls that left meanwhile (aborted) are given back: their slots are free at once', async () => {
    const store = new CountingStore();
    const pacing = limiter(store, 3);
    const first = await Promise.all([1, 2, 3].map(() => pacing.acquire('mutations')));
    const aborts = [new AbortController(), new AbortController()];
    const staying = pacing.acquire('mutations');
    const leaving = aborts.map((controller) => pacing.acquire('mutations', { signal: controller.signal }).catch((error: unknown) => error));
    let open: () => void = () => undefined;
    store.gate = new Promise((resolve) => (open = resolve));
    const held = new Promise<void>((resolve) => (store.onHeld = resolve));
    // Released in the same millisecond, so their slots free together: released across a millisecond
    // boundary (a loaded CPU), an ask could grant two of three, and the third call ask alone, never held.
    store.clock.held = Date.now();
    for (const permit of first) permit.release();
    store.clock.held = undefined;
    // Once the window has passed, the store grants the waiting calls' permits in one ask; two calls
    // leave before its answer comes.
    await held;
    expect(store.many.at(-1)).toBeGreaterThanOrEqual(2);
    for (const controller of aborts) controller.abort(new Error('caller gave up'));
    store.gate = undefined;
    open();
    (await staying).release();
    expect(await Promise.all(leaving)).toEqual([new Error('caller gave up'), new Error('caller gave up')]);
    expect(store.givenBack).toBe(2);
    // Two of the three slots are free now, not a window after.
    expect((await store.tryAcquire({ bucket: BUCKET, limit: 3, windowMs: WINDOW_MS, leaseMs: 5_000 })).granted).toBe(true);
    expect((await store.tryAcquire({ bucket: BUCKET, limit: 3, windowMs: WINDOW_MS, leaseMs: 5_000 })).granted).toBe(true);
    expect((await store.tryAcquire({ bucket: BUCKET, limit: 3, windowMs: WINDOW_MS, leaseMs: 5_000 })).granted).toBe(false);
  });

  it('a call made alone that leaves while the store is asked gives its permit back: its slot is free at once', async () => {
    const store = new CountingStore();
    const pacing = limiter(store, 1);
    const controller = new AbortController();
    let open: () => void = () => undefined;
    store.singleGate = new Promise((resolve) => (open = resolve));
    const held = new Promise<void>((resolve) => (store.onHeld = resolve));
    const leaving = pacing.acquire('mutations', { signal: controller.signal }).catch((error: unknown) => error);
    await held;
    controller.abort(new Error('caller gave up'));
    store.singleGate = undefined;
    open();
    expect(await leaving).toEqual(new Error('caller gave up'));
    expect(store.single).toBe(1);
    expect(store.givenBack).toBe(1);
    // The one slot is free now, not a window after.
    expect((await store.tryAcquire({ bucket: BUCKET, limit: 1, windowMs: WINDOW_MS, leaseMs: 5_000 })).granted).toBe(true);
  });
});
