import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { AdminClient, type AcquireRequest, type PermitStore } from '../../src/index.js';
import { RedisPermitStore } from '../../src/redis/index.js';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';
import { useDemoServers } from '../support/demo-server.js';
import { uniqueKeyPrefix, useRedisServer } from './shared-redis.js';

const redis = useRedisServer();
const LIMIT = 2;
const WINDOW_MS = 400;
const startDemoServer = useDemoServers();

/** A process farther from Redis: its permit requests arrive 30 ms late, so it loses every race for a slot. */
function farFromRedis(store: RedisPermitStore): PermitStore {
  return {
    tryAcquire: async (request: AcquireRequest) => (await sleep(30), store.tryAcquire(request)),
    release: (bucket, permitId, windowMs) => store.release(bucket, permitId, windowMs),
    pause: (bucket, untilMs) => store.pause(bucket, untilMs),
    learnLimit: (bucket, limit, keepMs) => store.learnLimit(bucket, limit, keepMs),
  };
}

describe('lanes across processes sharing the Redis store: "an interactive call overtakes every queued background call"', () => {
  it("an updateCoupon of one process is sent before the other process's queued grantCouponToMany grants, even when that process asks first", async () => {
    const server = await startDemoServer({ limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS } }, latency: { beforeArrivalMs: () => 2, afterHandlingMs: () => 2 } });
    const keyPrefix = uniqueKeyPrefix();
    // Two connections and two stores, as two processes have.
    const client = (store: PermitStore) => new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS }, store } });
    const bulk = client(new RedisPermitStore(redis().connect(), { keyPrefix }));
    const app = client(farFromRedis(new RedisPermitStore(redis().connect(), { keyPrefix })));
    const sent: string[] = [];
    let interactive: Promise<unknown> | undefined;
    bulk.on('request', () => {
      sent.push('grant');
      if (sent.length === LIMIT) interactive = new Promise((resolve) => setTimeout(resolve, 20)).then(() => app.updateCoupon(DEMO_IDS.restrictedCouponId, { name: 'Now' }));
    });
    app.on('request', () => sent.push('updateCoupon'));
    const members = Array.from({ length: 6 }, (_, index) => ({ email: demoMemberEmail(300 + index) }));
    const summary = await bulk.grantCouponToMany(DEMO_IDS.restrictedCouponId, members, { concurrency: 6 });
    await interactive;
    expect(summary.counts.failed).toBe(0);
    expect(sent.slice(0, LIMIT + 1)).toEqual(['grant', 'grant', 'updateCoupon']);
    expect(server.simulator.stats().rateLimited.mutations).toBe(0);
  });
});
