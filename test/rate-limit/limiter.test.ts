import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { ForeignShareBackoff } from '../../src/rate-limit/foreign-share-backoff.js';
import { RateLimiter, type Permit } from '../../src/rate-limit/limiter.js';
import { MemoryPermitStore } from '../../src/rate-limit/memory-permit-store.js';

const WINDOW_MS = 300;

function limiter(limit: number): RateLimiter {
  return new RateLimiter({
    store: new MemoryPermitStore(),
    buckets: { mutations: bucketName('sk_live_limiter_test', 'mutations'), queries: bucketName('sk_live_limiter_test', 'queries') },
    budgets: { mutations: { limit, windowMs: WINDOW_MS }, queries: { limit, windowMs: WINDOW_MS } },
    leaseMs: 5_000,
  });
}

describe('RateLimiter: "up to limit requests go out at once; after that each waits"', () => {
  it('grants a full burst up to the limit without waiting for a timer', async () => {
    const pacing = limiter(50);
    let timerFired = false;
    const timer = setTimeout(() => (timerFired = true), 0);
    const permits = await Promise.all(Array.from({ length: 50 }, () => pacing.acquire('mutations')));
    expect(permits).toHaveLength(50);
    expect(timerFired).toBe(false); // all 50 granted within microtasks of the same turn
    clearTimeout(timer);
  });

  it('the limit+1-th waits until a window after an answer, in arrival order', async () => {
    const pacing = limiter(2);
    const [first, second] = (await Promise.all([pacing.acquire('mutations'), pacing.acquire('mutations')])) as [Permit, Permit];
    const order: string[] = [];
    const third = pacing.acquire('mutations').then((permit) => (order.push('third'), permit));
    const fourth = pacing.acquire('mutations').then((permit) => (order.push('fourth'), permit));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]); // in flight permits count: nothing frees before an answer
    const answeredAt = performance.now();
    first.release();
    second.release();
    await Promise.all([third, fourth]);
    expect(order).toEqual(['third', 'fourth']);
    expect(performance.now() - answeredAt).toBeGreaterThanOrEqual(WINDOW_MS - 5);
  });

  it('mutations and queries have separate budgets', async () => {
    const pacing = limiter(1);
    await pacing.acquire('mutations');
    let queryGranted = false;
    await pacing.acquire('queries').then(() => (queryGranted = true));
    expect(queryGranted).toBe(true);
  });

  it('a request sent again after a 429 (head: true) goes before those already waiting', async () => {
    const pacing = limiter(1);
    const held = await pacing.acquire('mutations');
    const order: string[] = [];
    const waiting = pacing.acquire('mutations').then((permit) => (order.push('waiting'), permit.release()));
    await new Promise((resolve) => setTimeout(resolve, 20)); // the waiting request's job is running
    const later = pacing.acquire('mutations').then((permit) => (order.push('later'), permit.release()));
    const requeued = pacing.acquire('mutations', { head: true }).then((permit) => (order.push('requeued'), permit.release()));
    held.release();
    await Promise.all([waiting, later, requeued]);
    // The job already waiting keeps its turn; among the queued ones the re-sent request goes first.
    expect(order).toEqual(['waiting', 'requeued', 'later']);
  });

  it('aborting a waiting request rejects it at once and takes no permit', async () => {
    const pacing = limiter(1);
    const held = await pacing.acquire('mutations');
    const controller = new AbortController();
    const waiting = pacing.acquire('mutations', { signal: controller.signal });
    controller.abort(new Error('stop waiting'));
    await expect(waiting).rejects.toThrow('stop waiting');
    held.release();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 20));
    // The aborted request did not consume the slot: the next one is granted at once.
    const started = performance.now();
    await pacing.acquire('mutations');
    expect(performance.now() - started).toBeLessThan(WINDOW_MS / 2);
  });

  it('adapts to the limit the server states', async () => {
    const pacing = limiter(10);
    pacing.adaptLimit('mutations', 3);
    expect(pacing.budget('mutations').limit).toBe(3);
    await Promise.all([1, 2, 3].map(() => pacing.acquire('mutations')));
    let fourth = false;
    void pacing.acquire('mutations').then(() => (fourth = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fourth).toBe(false);
  });
});

describe('ForeignShareBackoff: after a 429 from traffic the client did not send', () => {
  const budget = { limit: 40, windowMs: 1_000 };

  it('halves the share once per window, then grows it back by a quarter of the limit per window', () => {
    const backoff = new ForeignShareBackoff();
    expect(backoff.limit(budget, 0)).toBe(40);
    backoff.rateLimited(budget, 0);
    backoff.rateLimited(budget, 10); // same burst: no second halving
    expect(backoff.limit(budget, 500)).toBe(20);
    expect(backoff.limit(budget, 1_000)).toBe(30);
    expect(backoff.limit(budget, 2_000)).toBe(40); // back to the full limit
    backoff.rateLimited(budget, 5_000);
    backoff.rateLimited(budget, 6_100); // a later window: the share had grown to 30, it halves again
    expect(backoff.limit(budget, 6_100)).toBe(15);
  });

  it('never goes below one request per window', () => {
    const backoff = new ForeignShareBackoff();
    for (let window = 0; window < 10; window += 1) backoff.rateLimited({ limit: 3, windowMs: 100 }, window * 100);
    expect(backoff.limit({ limit: 3, windowMs: 100 }, 950)).toBe(1);
  });
});
