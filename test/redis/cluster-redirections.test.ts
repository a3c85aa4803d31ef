import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import type { AcquireRequest } from '../../src/rate-limit/permit-store.js';
import { permitKeys } from '../../src/redis/permit-keys.js';
import { RedisPermitStore, RedisStoreError } from '../../src/redis/index.js';
import { startRedisServer, type TestRedisServer } from '../support/redis-server.js';
import type { TestRedisCluster } from '../support/redis-cluster.js';
import { useRedisCluster, type NodeRedisMajor } from './shared-cluster.js';
import { uniqueKeyPrefix } from './shared-redis.js';

const cluster = useRedisCluster({ nodeTimeoutMs: 5_000 });
const LIMIT = 20;

/** The node id of the node on `port`. */
async function nodeId(nodes: TestRedisCluster, port: number): Promise<string> {
  return String(await nodes.command(port, 'CLUSTER', 'MYID'));
}

/**
 * Moves `slot` from the master on `from` to the master on `to` as `redis-cli --cluster reshard`
 * does (IMPORTING, MIGRATING, MIGRATE the keys, SETSLOT NODE everywhere), one key at a time with
 * pauses, so that requests meet every state: ASK and TRYAGAIN while it moves, MOVED after.
 */
async function moveSlot(nodes: TestRedisCluster, slot: number, from: number, to: number): Promise<void> {
  const [fromId, toId] = [await nodeId(nodes, from), await nodeId(nodes, to)];
  await nodes.command(to, 'CLUSTER', 'SETSLOT', slot, 'IMPORTING', fromId);
  await nodes.command(from, 'CLUSTER', 'SETSLOT', slot, 'MIGRATING', toId);
  await sleep(200);
  for (;;) {
    const keys = (await nodes.command(from, 'CLUSTER', 'GETKEYSINSLOT', slot, 1)) as string[];
    if (keys.length === 0) break;
    await nodes.command(from, 'MIGRATE', '127.0.0.1', to, '', 0, 5_000, 'KEYS', ...keys);
    await sleep(100);
  }
  await sleep(200);
  for (const port of [to, from, ...nodes.nodes.map((node) => node.port)]) await nodes.command(port, 'CLUSTER', 'SETSLOT', slot, 'NODE', toId).catch(() => undefined);
}

describe.each(['ioredis', 6, 5] as const)('a resharding moves a bucket\'s slot to another master while %s asks for permits: "MOVED/ASK during a resharding are handled"', (library) => {
  it('the calls made while the slot moves wait and then get exactly the permits left: none lost, none over the limit, no error', async () => {
    const { cluster: nodes } = cluster();
    const client = library === 'ioredis' ? cluster().ioredis() : await cluster().nodeRedis(library as NodeRedisMajor);
    const keyPrefix = uniqueKeyPrefix();
    const bucket = bucketName(`sk_live_reshard_${library}`, 'mutations');
    // A still clock: every permit counts for the whole test, wherever its keys are.
    const store = new RedisPermitStore(client, { keyPrefix, clock: () => 1_000 });
    const request: AcquireRequest = { bucket, limit: LIMIT, windowMs: 60_000, leaseMs: 60_000 };
    for (let index = 0; index < LIMIT / 2; index += 1) expect((await store.tryAcquire(request)).granted).toBe(true);

    const keys = permitKeys(keyPrefix, bucket);
    const slot = Number(await nodes.command(nodes.nodes[0]?.port ?? 0, 'CLUSTER', 'KEYSLOT', keys.inFlight));
    const from = await nodes.masterOf(keys.inFlight);
    const masters = await Promise.all(nodes.nodes.map(async ({ port }) => ((await nodes.command(port, 'ROLE')) as [string])[0] === 'master' ? port : undefined));
    const to = masters.find((port) => port !== undefined && port !== from) as number;

    const moving = moveSlot(nodes, slot, from, to);
    const asked: Promise<boolean>[] = [];
    for (let index = 0; index < 30; index += 1) {
      asked.push(store.tryAcquire(request).then((result) => result.granted));
      await sleep(40);
    }
    await moving;
    const granted = (await Promise.all(asked)).filter(Boolean).length;

    expect(granted).toBe(LIMIT / 2);
    expect(await nodes.masterOf(keys.inFlight)).toBe(to);
    expect(await nodes.command(to, 'ZCARD', keys.inFlight)).toBe(LIMIT);
    expect(await store.tryAcquire(request)).toMatchObject({ granted: false, paused: false });
  }, 60_000);
});

describe('a standalone client on the wrong node is refused clearly: "a read-only replica answer is refused clearly"', () => {
  const servers: TestRedisServer[] = [];
  const clients: { quit(): Promise<unknown> }[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit().catch(() => undefined)));
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('connected to a replica (a demoted master, a replica address): RedisStoreError { redisCode: "READONLY" }, ioredis and node-redis alike', async () => {
    const master = await startRedisServer();
    servers.push(master);
    const replica = await startRedisServer({ args: ['--replicaof', '127.0.0.1', String(master.port)] });
    servers.push(replica);
    const ioredis = new Redis(replica.url);
    const nodeRedis = createClient({ url: replica.url });
    nodeRedis.on('error', () => undefined);
    await nodeRedis.connect();
    clients.push(ioredis, nodeRedis);
    for (const client of [ioredis, nodeRedis]) {
      const store = new RedisPermitStore(client, { keyPrefix: uniqueKeyPrefix() });
      const error: unknown = await store.tryAcquire({ bucket: 'b', limit: 1, windowMs: 1_000, leaseMs: 1_000 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RedisStoreError);
      expect(error).toMatchObject({ name: 'RedisStoreError', redisCode: 'READONLY' });
      expect((error as Error).message).toBe(
        'Failed to run the rate-limit permit script on Redis (READONLY): the client is connected to a read-only replica. Point it at the master, or pass an ioredis Cluster or a node-redis createCluster() client, which follow failovers.',
      );
    }
  });

  it('connected to one node of a cluster that does not serve the bucket: RedisStoreError { redisCode: "MOVED" }, pointing at the cluster clients', async () => {
    const { cluster: nodes } = cluster();
    const keyPrefix = uniqueKeyPrefix();
    const bucket = bucketName('sk_live_standalone_on_cluster', 'mutations');
    const owner = await nodes.masterOf(permitKeys(keyPrefix, bucket).inFlight);
    const other = nodes.nodes.find((node) => node.port !== owner) as { port: number };
    const client = new Redis({ host: '127.0.0.1', port: other.port });
    clients.push(client);
    const error: unknown = await new RedisPermitStore(client, { keyPrefix }).tryAcquire({ bucket, limit: 1, windowMs: 1_000, leaseMs: 1_000 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'RedisStoreError', redisCode: 'MOVED' });
    expect((error as Error).message).toContain('Pass an ioredis Cluster or a node-redis createCluster() client.');
  });
});
