import { describe, expect, it } from 'vitest';
import { redisCodeOf, scriptFailure } from '../../src/redis/connection/script-connection.js';
import { retryWhileUnavailable } from '../../src/redis/connection/unavailable-retry.js';

const quick = { firstDelayMs: 5, maxDelayMs: 20, forMs: 150 };

describe('retryWhileUnavailable: a cluster that cannot reach the slot\'s master is waited for, for a while', () => {
  it('retries a transient failure until the attempt succeeds', async () => {
    let attempts = 0;
    const result = await retryWhileUnavailable(
      async () => {
        attempts += 1;
        if (attempts < 4) throw new Error('Connection is closed.');
        return 'granted';
      },
      () => true,
      quick,
    );
    expect({ result, attempts }).toEqual({ result: 'granted', attempts: 4 });
  });

  it('gives up with the last error once forMs has passed, in about that time', async () => {
    const started = performance.now();
    let attempts = 0;
    const error: unknown = await retryWhileUnavailable(
      async () => {
        attempts += 1;
        throw new Error(`CLUSTERDOWN The cluster is down (${attempts})`);
      },
      () => true,
      quick,
    ).catch((caught: unknown) => caught);
    expect((error as Error).message).toBe(`CLUSTERDOWN The cluster is down (${attempts})`);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(attempts).toBeGreaterThan(3);
  });

  it('does not retry what the predicate calls final', async () => {
    let attempts = 0;
    const error: unknown = await retryWhileUnavailable(
      async () => {
        attempts += 1;
        throw new Error('READONLY You cannot write against a read only replica.');
      },
      () => false,
      quick,
    ).catch((caught: unknown) => caught);
    expect({ message: (error as Error).message, attempts }).toEqual({ message: 'READONLY You cannot write against a read only replica.', attempts: 1 });
  });
});

describe('the Redis error code of a failure', () => {
  it.each([
    ['READONLY You can\'t write against a read only replica.', 'READONLY'],
    ['Too many Cluster redirections. Last error: ReplyError: TRYAGAIN Multiple keys request during rehashing of slot', 'TRYAGAIN'],
    ['Too many Cluster redirections. Last error: Error: Connection is closed.', undefined],
    ['read ECONNRESET', undefined],
  ])('%j -> %s', (message, code) => {
    expect(redisCodeOf(new Error(message))).toBe(code);
  });

  it('ioredis giving up on a resharding becomes RedisStoreError { redisCode: "TRYAGAIN" }, its error kept as the cause', () => {
    const cause = new Error('Too many Cluster redirections. Last error: ReplyError: TRYAGAIN Multiple keys request during rehashing of slot');
    expect(scriptFailure(cause)).toMatchObject({ name: 'RedisStoreError', redisCode: 'TRYAGAIN', cause });
  });
});
