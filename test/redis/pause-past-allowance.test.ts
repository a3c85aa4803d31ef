import { describe, expect, it } from 'vitest';
import { RateLimitError, type AdminClient, type AdminClientOptions } from '../../src/index.js';
import { RedisPermitStore } from '../../src/redis/index.js';
import { failureOf, faultClient, operationCase } from '../reliability/support/operation-cases.js';
import { firstThen, waitSeconds } from '../reliability/support/rate-limit-answers.js';
import { useFaultServer } from '../reliability/support/use-fault-server.js';
import { uniqueKeyPrefix, useRedisServer } from './shared-redis.js';

const redis = useRedisServer();
const server = useFaultServer();

const createCoupon = operationCase('createCoupon');
const grantCoupon = operationCase('createCouponGrant');

/** Two clients of one key in two processes: each its own Redis connection and store, one budget. */
function twoProcesses(options: Partial<AdminClientOptions> = {}): [AdminClient, AdminClient] {
  const keyPrefix = uniqueKeyPrefix();
  const client = (): AdminClient =>
    faultClient(server, { timeoutMs: 2_000, limits: { mutations: { limit: 50, windowMs: 1_000 }, store: new RedisPermitStore(redis().connect(), { keyPrefix }) }, ...options });
  return [client(), client()];
}

describe('through Redis, a 429 past one call\'s maxRateLimitWaitMs holds the key\'s clients in every process', () => {
  it('Retry-After of an hour: the call fails with RateLimitError, and the other process\'s next call fails at once, nothing sent', async () => {
    server.script(firstThen(1, waitSeconds(3_600)));
    const [first, second] = twoProcesses();
    await expect(createCoupon.call(first)).rejects.toBeInstanceOf(RateLimitError);
    const { error, elapsedMs } = await failureOf(() => grantCoupon.call(second));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThan(3_500_000);
    expect(elapsedMs).toBeLessThan(1_000);
    expect(server.log).toHaveLength(1);
  });

  it('Retry-After: 1, past the first process\'s 500 ms: the other process waits it out, then sends once', async () => {
    server.script(firstThen(1, waitSeconds(1)));
    const [first, second] = twoProcesses();
    await expect(createCoupon.call(first.withOptions({ maxRateLimitWaitMs: 500 }))).rejects.toBeInstanceOf(RateLimitError);
    const started = performance.now();
    await expect(grantCoupon.call(second)).resolves.toBeDefined();
    expect(performance.now() - started).toBeGreaterThanOrEqual(800);
    expect(server.log).toHaveLength(2);
  });
});
