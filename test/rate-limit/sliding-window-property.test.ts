import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { MemoryPermitStore } from '../../src/rate-limit/memory-permit-store.js';
import type { PermitStore } from '../../src/rate-limit/permit-store.js';
import { scenarioArbitrary, withLanes } from './scenario-arbitrary.js';
import { SendTimeCountingStore } from './send-time-counting-store.js';
import { busiestWindow, simulate, type SimulationScenario } from './server-arrival-simulation.js';
import { VirtualClock } from './virtual-clock.js';

const BUCKET = bucketName('property-key', 'mutations');
const SCENARIOS = scenarioArbitrary({ maxClients: 6, maxRequestsPerClient: 20, maxLimit: 8 });

async function busiestWindowWith(makeStore: (now: () => number) => PermitStore, scenario: SimulationScenario): Promise<number> {
  const clock = new VirtualClock();
  const store = makeStore(clock.now);
  const { arrivals } = await simulate(scenario, () => store, clock, BUCKET);
  return busiestWindow(arrivals, scenario.windowMs);
}

/** Limit 1, window 1000: a request that reaches the server only at its response (500 ms), then another. */
const LATE_ARRIVAL_THEN_NEXT: SimulationScenario = {
  limit: 1,
  windowMs: 1_000,
  leaseMs: 4_001,
  clients: [
    [
      { thinkMs: 0, latencyMs: 500, arrivalPermille: 1_000 },
      { thinkMs: 0, latencyMs: 0, arrivalPermille: 0 },
    ],
  ],
};

describe('busiestWindow (the server side of the property)', () => {
  it('counts arrivals in half-open windows (t - windowMs, t]', () => {
    expect(busiestWindow([0, 1_000], 1_000)).toBe(1);
    expect(busiestWindow([0, 999], 1_000)).toBe(2);
    expect(busiestWindow([5, 5, 5, 1_004, 1_005], 1_000)).toBe(4);
  });
});

describe('the permit rule: count earlier requests in flight or answered less than windowMs ago', () => {
  it('no sliding window of the server ever sees more than `limit` arrivals (random clients, heavy-tailed latencies)', async () => {
    await fc.assert(
      fc.asyncProperty(SCENARIOS, async (scenario) => {
        const busiest = await busiestWindowWith((now) => new MemoryPermitStore({ now }), scenario);
        expect(busiest).toBeLessThanOrEqual(scenario.limit);
      }),
      { numRuns: 300 },
    );
  });

  it('with interactive and background clients and any reserve, still no window sees more than `limit` arrivals, and every request goes out', async () => {
    await fc.assert(
      fc.asyncProperty(withLanes(SCENARIOS), async (scenario) => {
        const clock = new VirtualClock();
        const store = new MemoryPermitStore({ now: clock.now });
        const { arrivals } = await simulate(scenario, () => store, clock, BUCKET);
        expect(arrivals).toHaveLength(scenario.clients.flat().length);
        expect(busiestWindow(arrivals, scenario.windowMs)).toBeLessThanOrEqual(scenario.limit);
      }),
      { numRuns: 300 },
    );
  });

  it('a request arriving at its response keeps the next one waiting until a full window after that response', async () => {
    const clock = new VirtualClock();
    const start = clock.now();
    const store = new MemoryPermitStore({ now: clock.now });
    const { arrivals } = await simulate(LATE_ARRIVAL_THEN_NEXT, () => store, clock, BUCKET);
    expect(arrivals.map((at) => at - start)).toEqual([500, 1_500]);
  });
});

describe('negative control: the naive rule "count each request from its send time" breaks the limit', () => {
  it('lets two arrivals into one window when a slow request arrives late', async () => {
    expect(await busiestWindowWith((now) => new SendTimeCountingStore(now), LATE_ARRIVAL_THEN_NEXT)).toBe(2);
  });

  it('fails the same property on random scenarios (fast-check finds a counterexample)', async () => {
    const result = await fc.check(
      fc.asyncProperty(SCENARIOS, async (scenario) => {
        const busiest = await busiestWindowWith((now) => new SendTimeCountingStore(now), scenario);
        return busiest <= scenario.limit;
      }),
      { numRuns: 300, seed: 20_261_122 },
    );
    expect(result.failed).toBe(true);
    const [counterexample] = result.counterexample ?? [];
    if (counterexample === undefined) throw new Error('fast-check reported a failure without a counterexample');
    expect(await busiestWindowWith((now) => new SendTimeCountingStore(now), counterexample)).toBeGreaterThan(counterexample.limit);
  });
});
