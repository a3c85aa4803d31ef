import { describe, expectTypeOf, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { createClient as createClient5, createCluster as createCluster5 } from 'redis-v5';
import { createRedisPermitStore, RedisPermitStore, type RedisConnection } from '../../src/redis/index.js';

describe('RedisPermitStore accepts the clients of ioredis and node-redis, and keeps their type', () => {
  it('ioredis Redis and Cluster', () => {
    expectTypeOf(new RedisPermitStore(new Redis()).client).toEqualTypeOf<Redis>();
    expectTypeOf(new RedisPermitStore(new Cluster([])).client).toEqualTypeOf<Cluster>();
  });

  it('node-redis 6 and 5 clients and clusters', () => {
    const client = createClient();
    expectTypeOf(new RedisPermitStore(client).client).toEqualTypeOf(client);
    const cluster = createCluster({ rootNodes: [] });
    expectTypeOf(new RedisPermitStore(cluster).client).toEqualTypeOf(cluster);
    new RedisPermitStore(createClient5());
    new RedisPermitStore(createCluster5({ rootNodes: [] }));
  });

  it('a URL gives the store a client of either library, which still takes an error listener', () => {
    const store = createRedisPermitStore('redis://127.0.0.1:6379');
    expectTypeOf(store.client).toEqualTypeOf<RedisConnection>();
    store.client.on('error', (error: Error) => error.message);
  });

  it('refuses other values at compile time as at run time', () => {
    // @ts-expect-error a Map is not a Redis client
    new RedisPermitStore(new Map());
    // @ts-expect-error options are not a client (c07ece8 took them for ioredis options)
    new RedisPermitStore({ host: '127.0.0.1', port: 6379 });
    // @ts-expect-error a pending connect() is not a client
    new RedisPermitStore(createClient().connect());
  });
});
