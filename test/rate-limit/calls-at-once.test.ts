import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { CallsAtOnce } from '../../src/rate-limit/calls-at-once.js';
import { BURST_SPAN_MS } from '../../src/rate-limit/lane-rule.js';
import { RateLimiter, type Permit } from '../../src/rate-limit/limiter.js';
import { MemoryPermitStore } from '../../src/rate-limit/memory-permit-store.js';
import type { AcquireRequest, AcquireResult } from '../../src/rate-limit/permit-store.js';

const KEY = 'sk_live_calls_at_once';
const WINDOW_MS = 400;

/** A memory store that keeps every interactive request it was asked (for one permit or several). */
class RecordingStore extends MemoryPermitStore {
  readonly interactive: AcquireRequest[] = [];

  override async tryAcquire(request: AcquireRequest): Promise<AcquireResult> {
    if (request.lane !== 'background') this.interactive.push(request);
    return super.tryAcquire(request);
  }

  override async tryAcquireMany(request: AcquireRequest, count: number): Promise<AcquireResult[]> {
    if (request.lane !== 'background') this.interactive.push(request);
    return super.tryAcquireMany(request, count);
  }
}

function limiter(store: RecordingStore, limit: number): RateLimiter {
  return new RateLimiter({
    store,
    buckets: { mutations: bucketName(KEY, 'mutations'), queries: bucketName(KEY, 'queries') },
    budgets: { mutations: { limit, windowMs: WINDOW_MS }, queries: { limit, windowMs: WINDOW_MS } },
    leaseMs: 5_000,
  });
}

describe(`a burst is calls made at once (within ${BURST_SPAN_MS} ms), not a queue that built up while calls waited`, () => {
  it('counts the calls made within the span of the latest', () => {
    const calls = new CallsAtOnce();
    expect(calls.made(0)).toBe(1);
    expect(calls.made(1)).toBe(2);
    expect(calls.made(BURST_SPAN_MS)).toBe(3);
    expect(calls.made(BURST_SPAN_MS + 2)).toBe(2); // the first two are older than the span
    expect(calls.at(10 * BURST_SPAN_MS)).toBe(1); // none left: the call asking
  });

  it('100,000 calls made at once are a burst of 100,000, forgotten together once older than the span', () => {
    const calls = new CallsAtOnce();
    for (let call = 0; call < 100_000; call += 1) calls.made(0);
    expect(calls.at(BURST_SPAN_MS)).toBe(100_000);
    expect(calls.made(BURST_SPAN_MS + 1)).toBe(1);
  });

  it('three calls made together ask as a burst of 3', async () => {
    const store = new RecordingStore();
    const pacing = limiter(store, 10);
    // The monotonic clock stands still, so that a garbage-collection pause between the three calls
    // on a loaded machine (more than the span: seen once in a fresh clone) does not split them.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      const permits = await Promise.all([1, 2, 3].map(() => pacing.acquire('mutations')));
      expect(Math.max(...store.interactive.map((request) => request.burst ?? 0))).toBe(3);
      for (const permit of permits) permit.release();
    } finally {
      vi.useRealTimers();
    }
  });

  it('calls made 40 ms apart that queue behind a full budget ask with their demand, each as a burst of 1', async () => {
    const store = new RecordingStore();
    const pacing = limiter(store, 2);
    const first = await Promise.all([pacing.acquire('mutations'), pacing.acquire('mutations')]);
    const waiting: Promise<Permit>[] = [];
    for (let call = 0; call < 5; call += 1) {
      // Each is answered at once once it has its permit (it counts a window more).
      waiting.push(pacing.acquire('mutations').then((permit) => (permit.release(), permit)));
      await sleep(40);
    }
    store.interactive.length = 0;
    for (const permit of first) permit.release();
    await Promise.all(waiting);
    // The queue asked with its demand (up to 5 waiting), never as a burst of more than one call.
    expect(Math.max(...store.interactive.map((request) => request.demand ?? 1))).toBeGreaterThan(1);
    expect(store.interactive.every((request) => request.burst === 1)).toBe(true);
  });
});
