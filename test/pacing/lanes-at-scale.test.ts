import { describe, expect, it } from 'vitest';
import { AdminClient, MemoryPermitStore, type WaitingEvent } from '../../src/index.js';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';
import { useDemoServers } from '../support/demo-server.js';

const startDemoServer = useDemoServers();
const WINDOW_MS = 1_000;
const WAIT_THRESHOLD_MS = 300;
// Members 300-399 are live accounts of the demo school (deleted ones are 13, 99, 250, 444).
const members = (count: number) => Array.from({ length: count }, (_, index) => ({ email: demoMemberEmail(300 + (index % 100)) }));

interface Scenario {
  limit: number;
  /** Interactive calls per window. */
  perWindow: number;
  /** Calls fired at once. */
  burst: number;
  /** Bulk work and interactive calls through one client, or two clients of the key sharing one store. */
  clients: 'one' | 'two';
}

/**
 * A grantCouponToMany of 5 windows' worth runs while interactive calls (updateCoupon) come at a
 * steady rate, starting half a window after the job (when it holds the budget). Returns the
 * interactive calls that waited longer than WAIT_THRESHOLD_MS for their permit, by start time
 * relative to the first interactive call.
 */
async function run({ limit, perWindow, burst, clients }: Scenario): Promise<{ waitedAt: number[]; calls: number; rateLimited: number }> {
  const server = await startDemoServer({ limits: { mutations: { limit, windowMs: WINDOW_MS } }, latency: { beforeArrivalMs: () => 2, afterHandlingMs: () => 2 } });
  // A store of the scenario's own: the default one is shared by every file in the worker (isolate:
  // false), and DEMO_API_KEY's bucket there may hold another file's pause or learnt budget (all five
  // cases hung to the 60 s guard once in a full run; 6-11 s alone).
  const options = { apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { mutations: { limit, windowMs: WINDOW_MS }, waitingThresholdMs: WAIT_THRESHOLD_MS, store: new MemoryPermitStore() } };
  const bulk = new AdminClient(options);
  const app = clients === 'one' ? bulk : new AdminClient(options);
  const waitedAt: number[] = [];
  let firstCallAt: number | undefined;
  app.on('waiting', (event: WaitingEvent) => {
    if (event.priority === 'interactive') waitedAt.push(performance.now() - event.waitedMs - (firstCallAt ?? 0));
  });
  let calls = 0;
  const pending: Promise<unknown>[] = [];
  let done = false;
  const fire = () => {
    firstCallAt ??= performance.now();
    for (let index = 0; index < burst; index += 1) {
      calls += 1;
      pending.push(app.updateCoupon(DEMO_IDS.restrictedCouponId, { name: `Call ${calls}` }));
    }
  };
  const every = (WINDOW_MS / perWindow) * burst;
  let timer: ReturnType<typeof setInterval> | undefined;
  const start = setTimeout(() => {
    fire();
    timer = setInterval(() => (done ? undefined : fire()), every);
  }, WINDOW_MS / 2);
  await bulk.grantCouponToMany(DEMO_IDS.restrictedCouponId, members(5 * limit), { concurrency: limit });
  done = true;
  clearTimeout(start);
  clearInterval(timer);
  await Promise.all(pending);
  return { waitedAt, calls, rateLimited: server.simulator.stats().rateLimited.mutations };
}

describe('lanes at every scale: "the reserve follows the interactive traffic actually seen, not only its first window"', () => {
  // The first window of interactive traffic that starts while a bulk job holds the budget is served
  // by the reserve and then by the job's slots as they free; from then on the interactive calls
  // have their share, whatever their number per window.
  const scenarios: Scenario[] = [
    { limit: 20, perWindow: 4, burst: 1, clients: 'one' },
    { limit: 50, perWindow: 10, burst: 1, clients: 'two' },
    { limit: 50, perWindow: 9, burst: 3, clients: 'one' },
  ];
  for (const scenario of scenarios) {
    it(`${scenario.limit} per window, ${scenario.perWindow} interactive calls per window${scenario.burst > 1 ? ` in bursts of ${scenario.burst}` : ''}, ${scenario.clients === 'one' ? 'one client' : 'two clients of the key'}: after their first window no interactive call waits for the bulk job`, async () => {
      const { waitedAt, calls, rateLimited } = await run(scenario);
      expect(calls).toBeGreaterThan(3 * scenario.perWindow);
      expect(waitedAt.filter((at) => at > WINDOW_MS * 1.2)).toEqual([]);
      expect(rateLimited).toBe(0);
    });
  }
});

describe('interactive demand: "a burst of interactive calls beyond the reserve is served in full by the next slots that free"', () => {
  for (const clients of ['one', 'two'] as const) {
    it(`ten interactive calls at once while a bulk job holds the budget all go with the next round of freed slots (${clients === 'one' ? 'one client' : 'two clients of the key'})`, async () => {
      const limit = 20;
      const server = await startDemoServer({ limits: { mutations: { limit, windowMs: WINDOW_MS } }, latency: { beforeArrivalMs: () => 2, afterHandlingMs: () => 2 } });
      const options = { apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { mutations: { limit, windowMs: WINDOW_MS }, store: new MemoryPermitStore() } };
      const bulk = new AdminClient(options);
      const app = clients === 'one' ? bulk : new AdminClient(options);
      const job = bulk.grantCouponToMany(DEMO_IDS.restrictedCouponId, members(6 * limit), { concurrency: limit });
      await new Promise((resolve) => setTimeout(resolve, WINDOW_MS / 4));
      const fired = performance.now();
      const latencies = await Promise.all(
        Array.from({ length: 10 }, (_, index) => app.updateCoupon(DEMO_IDS.restrictedCouponId, { name: `Burst ${index}` }).then(() => performance.now() - fired)),
      );
      await job;
      // One goes at once (the reserve); the others when the job's first slots free, within a window
      // (a fixed reserve for the first window of interactive traffic would leave some to the next).
      expect(Math.max(...latencies)).toBeLessThan(1.5 * WINDOW_MS);
      expect(server.simulator.stats().rateLimited.mutations).toBe(0);
    });
  }
});
