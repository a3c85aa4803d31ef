import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import type { PermitStore } from '../../src/rate-limit/permit-store.js';
import { locateRedisCli, locateRedisServer } from '../../test/support/redis-lookup.js';
import { startRedisCluster, type TestRedisCluster } from '../../test/support/redis-cluster.js';
import { startRedisServer, type TestRedisServer } from '../../test/support/redis-server.js';
import type { RedisLegName } from './leg-names.js';
import type { BenchSdk } from './sdk.js';

/** The store class of the build a cell runs (this checkout's, or c07ece8's, which takes an ioredis Redis only). */
export type StoreClass = new (client: never) => PermitStore;

/** What Redis processed so far, summed over the masters. */
export interface RedisCounters {
  /** Socket reads (INFO stats total_reads_processed): one per batch of commands that arrived together. */
  reads: number;
  /** EVALSHA and EVAL calls (INFO commandstats). */
  scripts: number;
}

/** A store opened for one cell, in the cell's process. */
export interface OpenLeg {
  /** A fresh store on the leg's client (every client of a run shares it). */
  store(): PermitStore;
  /** Redis's counters now (each reading adds one read per master, which the worker subtracts). */
  counters(): Promise<RedisCounters>;
  /** How many masters a reading asks. */
  readonly masters: number;
  close(): Promise<void>;
}

/** The goals a leg's figures are held to (issue 28). */
export interface LegGoals {
  heapPerCounted: number;
  roundTripsPerPermit: number;
  jobOverBound: number;
}

/** One Redis store setup the benchmark runs. */
export interface StoreLeg {
  readonly name: string;
  readonly description: string;
  /** True when c07ece8's store can run it (an ioredis Redis). */
  readonly before: boolean;
  readonly goals: LegGoals;
  open(sdk: BenchSdk): Promise<OpenLeg>;
}

const GOALS: LegGoals = { heapPerCounted: 200, roundTripsPerPermit: 1, jobOverBound: 1.05 };

async function countersOf(admins: readonly Redis[]): Promise<RedisCounters> {
  let reads = 0;
  let scripts = 0;
  for (const admin of admins) {
    const info = await admin.info('all');
    reads += Number(/total_reads_processed:(\d+)/.exec(info)?.[1] ?? Number.NaN);
    // Less the failed calls: a NOSCRIPT before a script's first EVAL on a node.
    for (const [, calls, failed] of info.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+),.*?failed_calls=(\d+)/g)) scripts += Number(calls) - Number(failed);
  }
  return { reads, scripts };
}

async function singleServer(): Promise<{ server: TestRedisServer; admins: Redis[] }> {
  const server = await startRedisServer();
  return { server, admins: [new Redis(server.url)] };
}

async function cluster(): Promise<{ cluster: TestRedisCluster; admins: Redis[]; seeds: { host: string; port: number }[] }> {
  const binary = locateRedisServer(process.env)?.path;
  const cli = binary === undefined ? undefined : locateRedisCli(process.env, binary)?.path;
  if (binary === undefined || cli === undefined) throw new Error('Failed to start the benchmark cluster: redis-server and redis-cli must be installed (apt-get install redis-server).');
  // Three masters, no replicas: the store's own cost, not replication's, on a 2-core machine.
  const started = await startRedisCluster({ binary, cli, replicas: 0, nodeTimeoutMs: 15_000 });
  const seeds = started.nodes.map(({ host, port }) => ({ host, port }));
  return { cluster: started, admins: seeds.map(({ port }) => new Redis({ host: '127.0.0.1', port })), seeds };
}

/** Every leg, by name (a name of leg-names.ts each, and the memory store's reference leg). */
const BY_NAME = {
  memory: {
    name: 'memory',
    description: 'MemoryPermitStore (the reference: what the Redis legs cost on top of the SDK; bench:tenants holds it to its own goals)',
    before: true,
    goals: { heapPerCounted: Number.POSITIVE_INFINITY, roundTripsPerPermit: Number.POSITIVE_INFINITY, jobOverBound: 1.05 },
    async open({ MemoryPermitStore }) {
      return { store: () => new MemoryPermitStore(), counters: async () => ({ reads: 0, scripts: 0 }), masters: 0, close: async () => undefined };
    },
  },
  ioredis: {
    name: 'ioredis',
    description: 'RedisPermitStore on one ioredis Redis, one redis-server',
    before: true,
    goals: GOALS,
    async open({ RedisPermitStore: Store }) {
      const { server, admins } = await singleServer();
      const client = new Redis(server.url);
      return {
        store: () => new Store(client as never),
        counters: () => countersOf(admins),
        masters: 1,
        async close() {
          client.disconnect();
          for (const admin of admins) admin.disconnect();
          await server.stop();
        },
      };
    },
  },
  'node-redis': {
    name: 'node-redis',
    description: 'RedisPermitStore on one node-redis 6 client (createClient), one redis-server',
    before: false,
    goals: GOALS,
    async open({ RedisPermitStore: Store }) {
      const { server, admins } = await singleServer();
      const client = createClient({ url: server.url });
      client.on('error', () => undefined);
      await client.connect();
      return {
        store: () => new Store(client as never),
        counters: () => countersOf(admins),
        masters: 1,
        async close() {
          client.destroy();
          for (const admin of admins) admin.disconnect();
          await server.stop();
        },
      };
    },
  },
  'ioredis-cluster': {
    name: 'ioredis-cluster',
    description: 'RedisPermitStore on an ioredis Cluster, 3 masters (no replicas)',
    before: false,
    goals: GOALS,
    async open({ RedisPermitStore: Store }) {
      const started = await cluster();
      const client = new Cluster(started.seeds);
      client.on('error', () => undefined);
      return {
        store: () => new Store(client as never),
        counters: () => countersOf(started.admins),
        masters: started.admins.length,
        async close() {
          client.disconnect();
          for (const admin of started.admins) admin.disconnect();
          await started.cluster.stop();
        },
      };
    },
  },
  'node-redis-cluster': {
    name: 'node-redis-cluster',
    description: 'RedisPermitStore on a node-redis 6 cluster (createCluster), 3 masters (no replicas)',
    before: false,
    goals: GOALS,
    async open({ RedisPermitStore: Store }) {
      const started = await cluster();
      const client = createCluster({ rootNodes: started.seeds.map(({ host, port }) => ({ url: `redis://${host}:${port}` })) });
      client.on('error', () => undefined);
      await client.connect();
      return {
        store: () => new Store(client as never),
        counters: () => countersOf(started.admins),
        masters: started.admins.length,
        async close() {
          client.destroy();
          for (const admin of started.admins) admin.disconnect();
          await started.cluster.stop();
        },
      };
    },
  },
} satisfies Record<RedisLegName | 'memory', StoreLeg>;

export const LEGS: Readonly<Record<string, StoreLeg>> = BY_NAME;
