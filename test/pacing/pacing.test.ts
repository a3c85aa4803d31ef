import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, MemoryPermitStore } from '../../src/index.js';
import { createSimulator, DEMO_API_KEY, DEMO_IDS, demoMemberEmail, seedDemoSchool, startMockServer, type MockServer } from '../../src/testing/index.js';
import { maxArrivalsInWindow } from '../support/sliding-window.js';

const LIMIT = 5;
const WINDOW_MS = 600;
const jitter = (maxMs: number) => () => Math.random() * maxMs;
let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function startServer(latencyMs = 30, floorMs = 0): Promise<MockServer> {
  const simulator = createSimulator({
    limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS }, queries: { limit: LIMIT, windowMs: WINDOW_MS } },
    latency: { beforeArrivalMs: () => floorMs + jitter(latencyMs)(), afterHandlingMs: jitter(latencyMs) },
  });
  seedDemoSchool(simulator);
  server = await startMockServer({ simulator });
  return server;
}

function pacedClient(url: string, store = new MemoryPermitStore()): AdminClient {
  return new AdminClient({
    apiKey: DEMO_API_KEY,
    baseUrl: url,
    limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS }, queries: { limit: LIMIT, windowMs: WINDOW_MS }, store },
  });
}

// Members 300-399 are live accounts of the demo school (deleted ones are 13, 99, 250, 444).
const grantTo = (admin: AdminClient, member: number) => admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(300 + member) });

describe('pacing under the sliding-window limit', () => {
  it('"A correctly configured client sees no 429 from its own traffic": 4x the limit, zero 429s, never more than limit arrivals in a window', async () => {
    const { url, simulator } = await startServer();
    const admin = pacedClient(url);
    const results = await Promise.all(Array.from({ length: LIMIT * 4 }, (_, index) => grantTo(admin, index + 1)));
    expect(results.every((result) => result.created)).toBe(true);
    expect(simulator.stats().rateLimited.mutations).toBe(0);
    const arrivals = simulator.requestLog().map((entry) => entry.arrivedAt);
    expect(arrivals).toHaveLength(LIMIT * 4);
    expect(maxArrivalsInWindow(arrivals, WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
  });

  it('"up to limit requests of a kind go out at once": the first burst is sent before any response arrives', async () => {
    // A latency floor: a response cannot come back before the client finished dispatching the burst.
    const { url } = await startServer(80, 100);
    const admin = pacedClient(url);
    const order: string[] = [];
    admin.on('request', () => order.push('request'));
    admin.on('response', () => order.push('response'));
    await Promise.all(Array.from({ length: LIMIT }, (_, index) => grantTo(admin, index + 1)));
    expect(order.slice(0, LIMIT)).toEqual(Array(LIMIT).fill('request'));
  });

  it('mutations and queries are paced apart (separate budgets)', async () => {
    const { url, simulator } = await startServer(5);
    const admin = pacedClient(url);
    await Promise.all([
      ...Array.from({ length: LIMIT }, (_, index) => grantTo(admin, index + 1)),
      ...Array.from({ length: LIMIT }, () => admin.request('query { __typename }')),
    ]);
    expect(simulator.stats().requests).toEqual({ mutations: LIMIT, queries: LIMIT });
    expect(simulator.stats().rateLimited).toEqual({ mutations: 0, queries: 0 });
  });

  it('two clients of one key in one process share the default store, so together they stay under the limit', async () => {
    const { url, simulator } = await startServer();
    const options = { apiKey: DEMO_API_KEY, baseUrl: url, limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS } } };
    const [first, second] = [new AdminClient(options), new AdminClient(options)];
    await Promise.all(Array.from({ length: LIMIT * 2 }, (_, index) => grantTo(index % 2 === 0 ? first : second, index + 1)));
    expect(simulator.stats().rateLimited.mutations).toBe(0);
    expect(maxArrivalsInWindow(simulator.requestLog().map((entry) => entry.arrivedAt), WINDOW_MS)).toBeLessThanOrEqual(LIMIT);
  });

  it('aborting a call that waits for a permit rejects it at once and sends nothing', async () => {
    const { url, simulator } = await startServer(0);
    const admin = pacedClient(url);
    await Promise.all(Array.from({ length: LIMIT }, (_, index) => grantTo(admin, index + 1)));
    const controller = new AbortController();
    const waiting = admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(50) }, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 100));
    expect(simulator.stats().requests.mutations).toBe(LIMIT);
  });
});
