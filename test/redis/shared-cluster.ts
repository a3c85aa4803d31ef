import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { Cluster, type ClusterOptions } from 'ioredis';
import { createCluster as createCluster6 } from 'redis';
import { createCluster as createCluster5 } from 'redis-v5';
import { isCi, locateRedisCli, locateRedisServer, type TestRedisTarget } from '../support/redis-lookup.js';
import { startRedisCluster, type StartRedisClusterOptions, type TestRedisCluster } from '../support/redis-cluster.js';

/** A node-redis cluster client of either major the tests run against. */
export type NodeRedisCluster = ReturnType<typeof createCluster6> | ReturnType<typeof createCluster5>;

/** The node-redis majors the suites cover: the current one (6) and the previous (5). */
export type NodeRedisMajor = 6 | 5;

/** The cluster of one test file and the clients opened on it (closed after the file's tests). */
export interface ClusterFixture {
  readonly cluster: TestRedisCluster;
  /** A new ioredis Cluster on the test cluster (an 'error' listener attached, as an app has). */
  ioredis(options?: ClusterOptions): Cluster;
  /** A new connected node-redis cluster client of `major` (an 'error' listener attached). */
  nodeRedis(major: NodeRedisMajor): Promise<NodeRedisCluster>;
  /** One client of each kind for the whole file, made on first use (for suites that open a store per test). */
  shared(kind: 'ioredis' | NodeRedisMajor): Promise<Cluster | NodeRedisCluster>;
}

/** Why a cluster cannot be started here, or the binaries to start it with. */
function binaries(): { server: string; cli: string } | { missing: string } {
  const provided = inject('testRedis') as TestRedisTarget | undefined;
  const server = provided?.kind === 'binary' ? provided.path : locateRedisServer(process.env)?.path;
  if (server === undefined) return { missing: provided?.kind === 'missing' ? provided.reason : 'redis-server is not installed (REDIS_URL gives one server, not a cluster)' };
  const cli = locateRedisCli(process.env, server)?.path;
  if (cli === undefined) return { missing: 'redis-cli is not installed (it comes with redis-server: apt-get install redis-server)' };
  return { server, cli };
}

/**
 * Starts a Redis Cluster of the file's own (3 masters with a replica each) before its tests and
 * stops it, and the clients opened on it, after them. Without redis-server and redis-cli the file's
 * tests are skipped (under CI they fail). Read the returned getter inside tests and hooks only.
 */
export function useRedisCluster(options: Omit<StartRedisClusterOptions, 'binary' | 'cli'> = {}): () => ClusterFixture {
  const found = binaries();
  if ('missing' in found) {
    if (isCi(process.env)) throw new Error(`Failed to start the test Redis Cluster: ${found.missing}. CI must run the cluster suites.`);
    beforeEach((context) => context.skip(`Redis Cluster unavailable: ${found.missing}`));
    return () => {
      throw new Error(`Redis Cluster unavailable: ${found.missing}`);
    };
  }
  let fixture: ClusterFixture | undefined;
  const closers: (() => Promise<unknown>)[] = [];
  const shared = new Map<string, Promise<Cluster | NodeRedisCluster>>();
  beforeAll(async () => {
    const cluster = await startRedisCluster({ binary: found.server, cli: found.cli, ...options });
    const seeds = cluster.nodes.map(({ host, port }) => ({ host, port }));
    fixture = {
      cluster,
      ioredis: (clientOptions) => {
        const client = new Cluster(seeds, clientOptions);
        client.on('error', () => undefined);
        closers.push(() => client.quit().catch(() => client.disconnect()));
        return client;
      },
      nodeRedis: async (major) => {
        const rootNodes = seeds.map(({ host, port }) => ({ url: `redis://${host}:${port}` }));
        const client: NodeRedisCluster = major === 6 ? createCluster6({ rootNodes }) : createCluster5({ rootNodes });
        client.on('error', () => undefined);
        await client.connect();
        closers.push(async () => client.destroy());
        return client;
      },
      shared: (kind) => {
        let client = shared.get(String(kind));
        if (client === undefined) {
          client = kind === 'ioredis' ? Promise.resolve(fixture?.ioredis() as Cluster) : (fixture as ClusterFixture).nodeRedis(kind);
          shared.set(String(kind), client);
        }
        return client;
      },
    };
  }, 90_000);
  afterAll(async () => {
    await Promise.all(closers.map((close) => close().catch(() => undefined)));
    await fixture?.cluster.stop();
  });
  return () => {
    if (fixture === undefined) throw new Error('the Redis Cluster is not started: read the fixture inside a test or hook');
    return fixture;
  };
}
