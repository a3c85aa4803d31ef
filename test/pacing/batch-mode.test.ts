import { describe, expect, it } from 'vitest';
import { AdminClient, MemoryPermitStore, type AcquireRequest, type PermitStore } from '../../src/index.js';
import { RedisPermitStore } from '../../src/redis/index.js';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';
import { useDemoServers } from '../support/demo-server.js';
import { uniqueKeyPrefix, useRedisServer } from '../redis/shared-redis.js';

const LIMIT = 20;
const WINDOW_MS = 2_000;
const startDemoServer = useDemoServers();
const redis = useRedisServer();

/** Records every background request for a permit that `store` is asked. */
function recording(store: PermitStore, asked: AcquireRequest[]): PermitStore {
  return {
    tryAcquire: (request) => {
      if (request.lane === 'background') asked.push(request);
      return store.tryAcquire(request);
    },
    release: (bucket, permitId, windowMs) => store.release(bucket, permitId, windowMs),
    pause: (bucket, untilMs) => store.pause(bucket, untilMs),
  };
}

/**
 * A burst of three interactive calls, then a bulk job of a budget's worth on the same key: the
 * grants sent before any slot can free (a window after the burst's first answer), so the count
 * does not depend on how busy the machine is.
 */
async function grantsSentAtOnce(store: PermitStore, interactiveReserve: number | undefined): Promise<number> {
  const server = await startDemoServer({ limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS } }, latency: { beforeArrivalMs: () => 2, afterHandlingMs: () => 2 } });
  const admin = new AdminClient({
    apiKey: DEMO_API_KEY,
    baseUrl: server.url,
    limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS }, store, ...(interactiveReserve === undefined ? {} : { interactiveReserve }) },
  });
  let firstAnswer = Number.POSITIVE_INFINITY;
  admin.on('response', () => void (firstAnswer = Math.min(firstAnswer, Date.now())));
  await Promise.all([0, 1, 2].map((index) => admin.updateCoupon(DEMO_IDS.restrictedCouponId, { name: `Burst ${index}` })));
  const sentAt: number[] = [];
  admin.on('request', () => void sentAt.push(Date.now()));
  const members = Array.from({ length: LIMIT }, (_, index) => ({ email: demoMemberEmail(400 + index) }));
  const summary = await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, members);
  expect(summary.counts.failed).toBe(0);
  expect(server.simulator.stats().rateLimited.mutations).toBe(0);
  return sentAt.filter((at) => at < firstAnswer + WINDOW_MS).length;
}

describe('batch mode: "limits: { interactiveReserve: 0 } means a process that runs bulk work only: no reserve, no ramp, no slots kept after interactive calls or bursts"', () => {
  it('the client asks for its background permits in batch mode, with no reserve and no ramp; by default it keeps both', async () => {
    const server = await startDemoServer({ latency: { beforeArrivalMs: () => 1, afterHandlingMs: () => 1 } });
    const asked: AcquireRequest[] = [];
    const admin = (reserve: number | undefined) =>
      new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { store: recording(new MemoryPermitStore(), asked), ...(reserve === undefined ? {} : { interactiveReserve: reserve }) } });
    await admin(0).grantCouponToMany(DEMO_IDS.restrictedCouponId, [{ email: demoMemberEmail(1) }]);
    expect(asked.at(-1)).toMatchObject({ batch: true });
    expect(asked.at(-1)).not.toHaveProperty('reserve');
    expect(asked.at(-1)).not.toHaveProperty('ramp');
    await admin(undefined).grantCouponToMany(DEMO_IDS.restrictedCouponId, [{ email: demoMemberEmail(2) }]);
    expect(asked.at(-1)).toMatchObject({ reserve: 4, ramp: 50 });
    expect(asked.at(-1)).not.toHaveProperty('batch');
  });

  it('memory store: after a burst of three, a bulk job takes the other 17 slots at once (by default it keeps the burst and the ramp back)', async () => {
    expect(await grantsSentAtOnce(new MemoryPermitStore(), 0)).toBe(LIMIT - 3);
    expect(await grantsSentAtOnce(new MemoryPermitStore(), undefined)).toBeLessThan(LIMIT - 3);
  });

  it('Redis store: the same, through the Lua script', async () => {
    expect(await grantsSentAtOnce(new RedisPermitStore(redis().connect(), { keyPrefix: uniqueKeyPrefix() }), 0)).toBe(LIMIT - 3);
    expect(await grantsSentAtOnce(new RedisPermitStore(redis().connect(), { keyPrefix: uniqueKeyPrefix() }), undefined)).toBeLessThan(LIMIT - 3);
  });
  it('an interactive call made anyway waits for the next slot that frees (up to a window) and goes before the queued bulk work', { timeout: 30_000 }, async () => {
    const limit = 5;
    const windowMs = 1_500;
    const server = await startDemoServer({ limits: { mutations: { limit, windowMs } }, latency: { beforeArrivalMs: () => 2, afterHandlingMs: () => 2 } });
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { mutations: { limit, windowMs }, store: new MemoryPermitStore(), interactiveReserve: 0 } });
    const sent: string[] = [];
    admin.on('request', (event) => void sent.push(event.operation));
    const members = Array.from({ length: 3 * limit }, (_, index) => ({ email: demoMemberEmail(420 + index) }));
    const job = admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, members);
    while (sent.length < limit) await new Promise((resolve) => setTimeout(resolve, 5));
    // The job holds the whole budget now; nothing frees before a window after its first answers.
    const made = Date.now();
    await admin.updateCoupon(DEMO_IDS.restrictedCouponId, { name: 'Made anyway' });
    const waitedMs = Date.now() - made;
    await job;
    expect(sent[limit]).toBe('updateCoupon');
    expect(waitedMs).toBeGreaterThan(windowMs / 2);
    expect(waitedMs).toBeLessThan(2 * windowMs);
    expect(server.simulator.stats().rateLimited.mutations).toBe(0);
  });
});
