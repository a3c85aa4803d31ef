import { describe, expect, it } from 'vitest';
import { MemoryPermitStore, RateLimitError, type AdminClient, type AdminClientOptions } from '../../src/index.js';
import { failureOf, faultClient, operationCase } from './support/operation-cases.js';
import { firstThen, waitSeconds } from './support/rate-limit-answers.js';
import { useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer();

const createCoupon = operationCase('createCoupon');
const grantCoupon = operationCase('createCouponGrant');
const HOUR_S = 3_600;

/** A paced client of the fault server (a budget that never binds unless a test sets one), on `store`. */
function client(store: MemoryPermitStore, options: Partial<AdminClientOptions> = {}): AdminClient {
  return faultClient(server, { timeoutMs: 2_000, limits: { mutations: { limit: 50, windowMs: 1_000 }, store }, ...options });
}

describe('a 429 asking for a wait past maxRateLimitWaitMs holds every client of the key, not only the call it answered', () => {
  it('the call fails with RateLimitError; the next call of the key fails at once with RateLimitError, nothing sent', async () => {
    server.script(firstThen(1, waitSeconds(HOUR_S)));
    const admin = client(new MemoryPermitStore());
    await expect(createCoupon.call(admin)).rejects.toBeInstanceOf(RateLimitError);
    const { error, elapsedMs } = await failureOf(() => grantCoupon.call(admin));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ operationType: 'mutations', retryAfterMs: expect.any(Number) });
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThan((HOUR_S - 60) * 1_000);
    expect((error as RateLimitError).message).toMatch(/^Failed to grant the coupon: .*maxRateLimitWaitMs.*retry after/isu);
    expect(elapsedMs).toBeLessThan(1_000);
    expect(server.log).toHaveLength(1);
  });

  it('calls made at once during the pause (they ask the store together) all fail at once, nothing sent', async () => {
    server.script(firstThen(1, waitSeconds(HOUR_S)));
    // A 10 s window: a call that went to wait in the queue instead would learn of the pause only when the queue next asks, 10 s on.
    const store = new MemoryPermitStore();
    const admin = client(store, { limits: { mutations: { limit: 50, windowMs: 10_000 }, store } });
    await expect(createCoupon.call(admin)).rejects.toBeInstanceOf(RateLimitError);
    const started = performance.now();
    const outcomes = await Promise.allSettled([grantCoupon.call(admin), createCoupon.call(admin), grantCoupon.call(admin)]);
    expect(outcomes.map((outcome) => outcome.status === 'rejected' && outcome.reason instanceof RateLimitError)).toEqual([true, true, true]);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(server.log).toHaveLength(1);
  });

  it('another client of the key sharing the store (another process, through Redis) fails at once too', async () => {
    server.script(firstThen(1, waitSeconds(HOUR_S)));
    const store = new MemoryPermitStore();
    await expect(createCoupon.call(client(store))).rejects.toBeInstanceOf(RateLimitError);
    await expect(grantCoupon.call(client(store))).rejects.toBeInstanceOf(RateLimitError);
    expect(server.log).toHaveLength(1);
  });

  it('calls already waiting for the budget when the 429 comes fail at once when their turn comes, nothing sent', async () => {
    server.script(firstThen(1, waitSeconds(HOUR_S)));
    // One request per 300 ms: the calls behind the first wait in the queue.
    const admin = client(new MemoryPermitStore(), { limits: { mutations: { limit: 1, windowMs: 300 }, store: new MemoryPermitStore() } });
    const outcomes = await Promise.allSettled([createCoupon.call(admin), grantCoupon.call(admin), grantCoupon.call(admin), createCoupon.call(admin)]);
    expect(outcomes.map((outcome) => outcome.status === 'rejected' && outcome.reason instanceof RateLimitError)).toEqual([true, true, true, true]);
    expect(server.log).toHaveLength(1);
  });

  it('a pause that fits a call\'s own allowance is waited out: the call goes after it, once', async () => {
    server.script(firstThen(1, waitSeconds(1)));
    const store = new MemoryPermitStore();
    // This call may wait 0.5 s: the 1 s asked for ends it.
    await expect(createCoupon.call(client(store, { maxRateLimitWaitMs: 500 }))).rejects.toBeInstanceOf(RateLimitError);
    const started = performance.now();
    await expect(grantCoupon.call(client(store))).resolves.toBeDefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(800);
    expect(server.log).toHaveLength(2);
  });

  it('each call decides by its own maxRateLimitWaitMs: in one queue, a client made withOptions({ maxRateLimitWaitMs: 5_000 }) waits while the 500 ms one fails', async () => {
    server.script(firstThen(1, waitSeconds(2)));
    const admin = client(new MemoryPermitStore(), { maxRateLimitWaitMs: 500 });
    await expect(createCoupon.call(admin)).rejects.toBeInstanceOf(RateLimitError);
    await expect(grantCoupon.call(admin)).rejects.toBeInstanceOf(RateLimitError);
    await expect(grantCoupon.call(admin.withOptions({ maxRateLimitWaitMs: 5_000 }))).resolves.toBeDefined();
    expect(server.log).toHaveLength(2);
  });

  it('a call that gives up on its retries (maxRetries 0) leaves the pause for the others too: the next call waits it out', async () => {
    server.script(firstThen(1, waitSeconds(1)));
    const admin = client(new MemoryPermitStore(), { maxRetries: 0 });
    await expect(createCoupon.call(admin)).rejects.toBeInstanceOf(RateLimitError);
    const started = performance.now();
    await expect(grantCoupon.call(admin)).resolves.toBeDefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(800);
    expect(server.log).toHaveLength(2);
  });

  it('without pacing (limits: false) nothing is shared: the next call is sent', async () => {
    server.script(firstThen(1, waitSeconds(HOUR_S)));
    const admin = faultClient(server, { timeoutMs: 2_000 });
    await expect(createCoupon.call(admin)).rejects.toBeInstanceOf(RateLimitError);
    await expect(grantCoupon.call(admin)).resolves.toBeDefined();
    expect(server.log).toHaveLength(2);
  });
});
