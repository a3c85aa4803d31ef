import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { RedisPermitStore } from '../../src/redis/index.js';
import { scenarioArbitrary, withLanes } from '../rate-limit/scenario-arbitrary.js';
import { busiestWindow, simulate } from '../rate-limit/server-arrival-simulation.js';
import { VirtualClock } from '../rate-limit/virtual-clock.js';
import { uniqueKeyPrefix, useRedisServer } from './shared-redis.js';

const redis = useRedisServer();
const BUCKET = bucketName('shared-budget-key', 'mutations');

/** Two stores on two connections, as two processes sharing one API key would have. */
function twoProcesses(options: { keyPrefix: string; clock?: () => number }): [RedisPermitStore, RedisPermitStore] {
  return [new RedisPermitStore(redis().connect(), options), new RedisPermitStore(redis().connect(), options)];
}

describe('one budget shared by two processes through Redis', () => {
  it('concurrent bursts from both never get more than `limit` permits together (atomic Lua)', async () => {
    for (let round = 0; round < 5; round += 1) {
      const [first, second] = twoProcesses({ keyPrefix: uniqueKeyPrefix() });
      const request = { bucket: BUCKET, limit: 7, windowMs: 60_000, leaseMs: 30_000 };
      const attempts = Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? first : second).tryAcquire(request));
      const results = await Promise.all(attempts);
      expect(results.filter((result) => result.granted)).toHaveLength(7);
    }
  });

  it('no sliding window of the server sees more than `limit` arrivals from both together (random clients, heavy-tailed latencies)', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary({ maxClients: 4, maxRequestsPerClient: 10, maxLimit: 5 }), async (scenario) => {
        const clock = new VirtualClock();
        const stores = twoProcesses({ keyPrefix: uniqueKeyPrefix(), clock: clock.now });
        const { arrivals } = await simulate(scenario, (client) => stores[client % 2] ?? stores[0], clock, BUCKET);
        expect(busiestWindow(arrivals, scenario.windowMs)).toBeLessThanOrEqual(scenario.limit);
      }),
      { numRuns: 150 },
    );
  });

  it('with interactive and background clients in both processes and any reserve, no window sees more than `limit` arrivals', async () => {
    await fc.assert(
      fc.asyncProperty(withLanes(scenarioArbitrary({ maxClients: 4, maxRequestsPerClient: 8, maxLimit: 5 })), async (scenario) => {
        const clock = new VirtualClock();
        const stores = twoProcesses({ keyPrefix: uniqueKeyPrefix(), clock: clock.now });
        const { arrivals } = await simulate(scenario, (client) => stores[client % 2] ?? stores[0], clock, BUCKET);
        expect(arrivals).toHaveLength(scenario.clients.flat().length);
        expect(busiestWindow(arrivals, scenario.windowMs)).toBeLessThanOrEqual(scenario.limit);
      }),
      { numRuns: 100 },
    );
  });

  it("another process's answer counts for the window in every process", async () => {
    const clock = new VirtualClock();
    const [first, second] = twoProcesses({ keyPrefix: uniqueKeyPrefix(), clock: clock.now });
    const request = { bucket: BUCKET, limit: 1, windowMs: 1_000, leaseMs: 5_000 };
    const held = await first.tryAcquire(request);
    if (!held.granted) throw new Error('expected the first permit');
    clock.advance(200);
    await first.release(BUCKET, held.permitId, request.windowMs);
    clock.advance(300);
    expect(await second.tryAcquire(request)).toEqual({ granted: false, retryAfterMs: 700, paused: false, limit: 1, windowMs: 1_000 });
    clock.advance(700);
    expect((await second.tryAcquire(request)).granted).toBe(true);
  });
});

describe('a shared pause after any client’s 429', () => {
  it('stops the other process too, and another process never shortens it', async () => {
    const clock = new VirtualClock();
    const [first, second] = twoProcesses({ keyPrefix: uniqueKeyPrefix(), clock: clock.now });
    const request = { bucket: BUCKET, limit: 10, windowMs: 1_000, leaseMs: 5_000 };
    await first.pause(BUCKET, clock.now() + 500);
    expect(await second.tryAcquire(request)).toMatchObject({ granted: false, retryAfterMs: 500, paused: true });
    await second.pause(BUCKET, clock.now() + 200);
    expect(await first.tryAcquire(request)).toMatchObject({ granted: false, retryAfterMs: 500, paused: true });
    clock.advance(500);
    expect((await first.tryAcquire(request)).granted).toBe(true);
    expect((await second.tryAcquire(request)).granted).toBe(true);
  });

  it("is kept on Redis's clock (real TIME): the other process waits out the pause's remaining time", async () => {
    const [first, second] = twoProcesses({ keyPrefix: uniqueKeyPrefix() });
    await first.pause(BUCKET, Date.now() + 30_000);
    const result = await second.tryAcquire({ bucket: BUCKET, limit: 10, windowMs: 1_000, leaseMs: 5_000 });
    if (result.granted) throw new Error('expected the pause to refuse');
    expect(result.paused).toBe(true);
    // The exact value depends on how long the two calls took; a pause of 30 s leaves most of it.
    expect(result.retryAfterMs).toBeGreaterThan(20_000);
    expect(result.retryAfterMs).toBeLessThanOrEqual(30_000);
  });
});

describe('lanes across processes: an interactive call in one process overtakes background work in another', () => {
  it("the refused interactive queue's slot is held in Redis: the other process's background work takes only the rest", async () => {
    const clock = new VirtualClock();
    const [interactiveProcess, backgroundProcess] = twoProcesses({ keyPrefix: uniqueKeyPrefix(), clock: clock.now });
    const request = { bucket: BUCKET, limit: 3, windowMs: 1_000, leaseMs: 5_000 };
    const background = { ...request, lane: 'background' as const, reserve: 1 };
    const permits = await Promise.all([1, 2, 3].map(() => backgroundProcess.tryAcquire({ ...background, reserve: 0 })));
    // No reserve and no interactive traffic yet: background takes the whole limit.
    expect(permits.every((result) => result.granted)).toBe(true);
    for (const permit of permits) if (permit.granted) await backgroundProcess.release(BUCKET, permit.permitId, request.windowMs);
    expect(await interactiveProcess.tryAcquire({ ...request, waiter: 'process-a' })).toMatchObject({ granted: false, retryAfterMs: 1_000 });
    clock.advance(1_000);
    // Three slots free: one held for the interactive queue, one kept free (the reserve).
    const backgroundGrants = await Promise.all([1, 2, 3].map(() => backgroundProcess.tryAcquire(background)));
    expect(backgroundGrants.filter((result) => result.granted)).toHaveLength(1);
    expect((await interactiveProcess.tryAcquire({ ...request, waiter: 'process-a' })).granted).toBe(true);
  });

  it('a limit learnt by one process applies to the other at once', async () => {
    const [first, second] = twoProcesses({ keyPrefix: uniqueKeyPrefix() });
    const request = { bucket: BUCKET, limit: 200, windowMs: 60_000, leaseMs: 30_000 };
    await first.learnLimit(BUCKET, 4, request.windowMs);
    const burst = await Promise.all(Array.from({ length: 10 }, () => second.tryAcquire(request)));
    expect(burst.filter((result) => result.granted)).toHaveLength(4);
    expect(burst.at(-1)).toMatchObject({ granted: false, limit: 4 });
  });
});
