import { describe, expect, it } from 'vitest';
import { AdminClient, bucketName, MemoryPermitStore, NetworkError, type AdminClientOptions, type WaitingEvent } from '../../src/index.js';
import { refusedPort } from '../support/refused-port.js';
import { operationCase } from './support/operation-cases.js';
import { useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer();
const grantCoupon = operationCase('createCouponGrant');

/** A client of a server nothing listens on (its port refuses connections), with its own store. */
async function refusedClient(apiKey: string, options: Partial<AdminClientOptions> = {}): Promise<{ admin: AdminClient; store: MemoryPermitStore; baseUrl: string }> {
  const store = new MemoryPermitStore();
  const baseUrl = `http://127.0.0.1:${await refusedPort()}`;
  const limits = typeof options.limits === 'object' ? options.limits : {};
  return { admin: new AdminClient({ apiKey, baseUrl, ...options, limits: { ...limits, store } }), store, baseUrl };
}

/** Runs `count` calls, `concurrency` at a time; resolves with how many had settled after `withinMs`. */
async function settledWithin(count: number, concurrency: number, withinMs: number, call: () => Promise<unknown>): Promise<{ settled: number; errors: unknown[] }> {
  const errors: unknown[] = [];
  let started = 0;
  let settled = 0;
  const worker = async (): Promise<void> => {
    while (started < count) {
      started += 1;
      await call().catch((error: unknown) => errors.push(error));
      settled += 1;
    }
  };
  const all = Promise.all(Array.from({ length: concurrency }, worker));
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, withinMs)))]);
  clearTimeout(timer);
  return { settled, errors };
}

/** How many permits the store grants at once now in the key's mutation bucket (nothing else waits for them). */
async function freeSlots(store: MemoryPermitStore, apiKey: string, limit: number): Promise<number> {
  let granted = 0;
  while (granted <= limit && (await store.tryAcquire({ bucket: bucketName(apiKey, 'mutations'), limit, windowMs: 60_000, leaseMs: 65_000 })).granted) granted += 1;
  return granted;
}

describe('a request that surely never reached the server gives its rate-limit slot back at once', () => {
  // Regression: a refused connection held its slot for a whole window: the first 200 calls failed
  // at once and the last ones still waited for a slot 20 s later.
  it('250 calls (25 at a time) to a refused port, maxRetries 0, the default budget: all settle within 5 s', { timeout: 15_000 }, async () => {
    const { admin } = await refusedClient('sk_live_refused_burst_0001', { maxRetries: 0 });
    const { settled, errors } = await settledWithin(250, 25, 5_000, () => grantCoupon.call(admin));
    expect(settled).toBe(250);
    expect(errors).toHaveLength(250);
    expect(errors.every((error) => error instanceof NetworkError && !error.mayHaveReachedServer)).toBe(true);
  });

  it('the retries of an unreachable request do not consume the budget either', { timeout: 15_000 }, async () => {
    const apiKey = 'sk_live_refused_retries_01';
    const { admin, store } = await refusedClient(apiKey, { maxRetries: 3, retryBaseDelayMs: 1, maxRetryDelayMs: 5, limits: { mutations: { limit: 3, windowMs: 60_000 } } });
    const retries: number[] = [];
    admin.on('retry', (event) => retries.push(event.attempt));
    // 10 calls of 4 attempts each, under a budget of 3 per minute.
    const { settled } = await settledWithin(10, 10, 5_000, () => grantCoupon.call(admin));
    expect(settled).toBe(10);
    expect(retries).toHaveLength(30);
    expect(await freeSlots(store, apiKey, 3)).toBe(3);
  });

  it.each([
    ['a connection reset after the server read the request', { kind: 'reset-after-read' as const }, {}],
    ['a timeout', { kind: 'hang' as const }, { timeoutMs: 150 }],
  ])('%s may have reached the server: its slot counts for a window after the failure', async (_, fault, options) => {
    server.script(fault);
    const apiKey = `sk_live_ambiguous_${fault.kind}`;
    const store = new MemoryPermitStore();
    const admin = new AdminClient({ apiKey, baseUrl: server.url, maxRetries: 0, ...options, limits: { mutations: { limit: 2, windowMs: 60_000 }, store } });
    const errors = await Promise.all([1, 2].map(() => grantCoupon.call(admin).catch((error: unknown) => error)));
    expect(errors.every((error) => (error as { mayHaveReachedServer?: boolean }).mayHaveReachedServer === true)).toBe(true);
    expect(await freeSlots(store, apiKey, 2)).toBe(0);
  });
});

describe('NetworkError names where it could not connect, never the key', () => {
  it("a refused connection: networkCode 'ECONNREFUSED', baseUrl's origin in the field and the message", async () => {
    const apiKey = 'sk_live_refused_message_01';
    const { admin, baseUrl } = await refusedClient(apiKey, { maxRetries: 0 });
    const error = await grantCoupon.call(admin).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ mayHaveReachedServer: false, networkCode: 'ECONNREFUSED', origin: baseUrl });
    expect((error as Error).message).toBe(
      `Failed to grant the coupon: the connection to ${baseUrl} failed (ECONNREFUSED) before a response arrived. The request never reached the server; check baseUrl and the network.`,
    );
    expect(JSON.stringify(error)).toContain('"networkCode":"ECONNREFUSED"');
    expect(JSON.stringify(error) + (error as Error).stack).not.toContain(apiKey);
  });
});

describe("the 'waiting' event names an unreachable server", () => {
  it("a retry's backoff after a refused connection that outlasts waitingThresholdMs emits waiting { reason: 'unreachable', networkCode }", async () => {
    const { admin } = await refusedClient('sk_live_refused_waiting_01', { maxRetries: 1, retryBaseDelayMs: 300, maxRetryDelayMs: 10_000, limits: { waitingThresholdMs: 100 } });
    const waits: WaitingEvent[] = [];
    admin.on('waiting', (event) => waits.push(event));
    await expect(grantCoupon.call(admin)).rejects.toBeInstanceOf(NetworkError);
    expect(waits).toEqual([
      {
        operation: 'grantCoupon',
        callId: expect.stringMatching(/^call_/u),
        attempt: 2,
        operationType: 'mutations',
        priority: 'interactive',
        reason: 'unreachable',
        networkCode: 'ECONNREFUSED',
        waitedMs: expect.any(Number),
        expectedMs: expect.any(Number),
      },
    ]);
    const [wait] = waits;
    // The backoff is 300-600 ms (randomised): told at the threshold, with at most the rest of it.
    expect(wait?.waitedMs).toBeGreaterThanOrEqual(95);
    expect(wait?.expectedMs).toBeLessThanOrEqual(600 - 95);
  });

  it('a backoff that cannot outlast the threshold is not told', async () => {
    const { admin } = await refusedClient('sk_live_refused_waiting_02', { maxRetries: 2, retryBaseDelayMs: 20, maxRetryDelayMs: 10_000, limits: { waitingThresholdMs: 200 } });
    const waits: WaitingEvent[] = [];
    admin.on('waiting', (event) => waits.push(event));
    await expect(grantCoupon.call(admin)).rejects.toBeInstanceOf(NetworkError);
    expect(waits).toEqual([]);
  });
});
