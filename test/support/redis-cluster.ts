import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort, startRedisServer, type TestRedisServer } from './redis-server.js';

const run = promisify(execFile);

/** A node of a test cluster, on 127.0.0.1. */
export interface ClusterNodeAddress {
  readonly host: '127.0.0.1';
  readonly port: number;
}

/** A Redis Cluster started for tests: masters with a replica each, on free loopback ports. */
export interface TestRedisCluster {
  /** Every node's address, masters first (the seeds a cluster client starts from). */
  readonly nodes: readonly ClusterNodeAddress[];
  /** Sends one command to one node (a connection of the harness, not the clients under test). */
  command(port: number, ...args: (string | number)[]): Promise<unknown>;
  /** The port of the master serving `key`'s slot now. */
  masterOf(key: string): Promise<number>;
  /** The port of a replica of the master at `masterPort`. */
  replicaOf(masterPort: number): Promise<number>;
  /** Kills the node (SIGKILL: a crash, no persistence). */
  kill(port: number): Promise<void>;
  /** Starts a killed node again on its port, empty (its RDB file deleted), with its cluster configuration (it rejoins as itself). */
  restart(port: number): Promise<void>;
  /**
   * Resolves once every running node reports `cluster_state:ok`, they agree who serves every slot,
   * and every replica's link to its master is up.
   */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** Stops every node and removes their files. */
  stop(): Promise<void>;
}

/** Options of {@link startRedisCluster}. */
export interface StartRedisClusterOptions {
  /** The redis-server binary. */
  binary: string;
  /** The redis-cli binary (`redis-cli --cluster create`). */
  cli: string;
  /** @default 3 */
  masters?: number;
  /** Replicas per master. @default 1 */
  replicas?: number;
  /**
   * `cluster-node-timeout`: how long a node may not answer before it is failed over. Short, so a
   * failover fits in a test; long enough that a busy machine does not fail nodes over by itself.
   * @default 2000
   */
  nodeTimeoutMs?: number;
}

/**
 * Starts a Redis Cluster (`redis-server --cluster-enabled yes` per node, then `redis-cli --cluster
 * create --cluster-replicas N --cluster-yes`) and resolves once it is healthy. Each node has its own
 * free port and cluster bus port (`cluster-port`), and keeps its cluster configuration in a temporary
 * directory, so that a node killed and started again rejoins as itself, empty.
 */
export async function startRedisCluster(options: StartRedisClusterOptions): Promise<TestRedisCluster> {
  const masters = options.masters ?? 3;
  const replicas = options.replicas ?? 1;
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const servers = new Map<number, TestRedisServer>();
  const busPorts = new Map<number, number>();
  const connections = new Map<number, Redis>();
  const nodeArgs = async (port: number | undefined): Promise<string[]> => {
    const bus = (port === undefined ? undefined : busPorts.get(port)) ?? (await freePort());
    return [
      '--cluster-enabled', 'yes',
      '--cluster-config-file', `nodes-${port ?? 'new'}-${bus}.conf`,
      '--cluster-node-timeout', String(options.nodeTimeoutMs ?? 2_000),
      '--cluster-port', String(bus),
      '--dir', dir,
      // A node's own file: a replica writes the RDB of a full sync to disk, and a node started again
      // must not load another's (restart() deletes its own, so it comes back empty).
      '--dbfilename', `dump-${bus}.rdb`,
      '--appendonly', 'no',
      '--save', '',
    ];
  };
  const configFiles = new Map<number, string[]>();
  const start = async (port?: number): Promise<TestRedisServer> => {
    const args = port === undefined ? undefined : configFiles.get(port);
    const chosen = args ?? (await nodeArgs(port));
    const server = await startRedisServer({ binary: options.binary, args: chosen, ...(port === undefined ? {} : { port }) });
    configFiles.set(server.port, chosen);
    busPorts.set(server.port, Number(chosen[chosen.indexOf('--cluster-port') + 1]));
    servers.set(server.port, server);
    return server;
  };
  const connection = (port: number): Redis => {
    let client = connections.get(port);
    if (client === undefined) {
      client = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
      client.on('error', () => undefined);
      client.on('end', () => connections.delete(port));
      connections.set(port, client);
    }
    return client;
  };
  const command = async (port: number, ...args: (string | number)[]): Promise<unknown> => {
    const [name, ...rest] = args;
    return connection(port).call(String(name), ...rest.map(String));
  };

  try {
    const started = await Promise.all(Array.from({ length: masters * (1 + replicas) }, () => start()));
    const addresses = started.map((server) => `127.0.0.1:${server.port}`);
    await run(options.cli, ['--cluster', 'create', ...addresses, '--cluster-replicas', String(replicas), '--cluster-yes'], { timeout: 60_000 });
  } catch (error) {
    await Promise.all([...servers.values()].map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  // At creation, the replicas redis-cli set up must be known everywhere before a test may fail a master over.
  let replicasExpected = masters * replicas;
  const cluster: TestRedisCluster = {
    nodes: [...servers.keys()].map((port) => ({ host: '127.0.0.1', port })),
    command,
    masterOf: async (key) => {
      const slot = Number(await command(firstRunning(servers), 'CLUSTER', 'KEYSLOT', key));
      for (const port of servers.keys()) {
        const owner = await slotOwner(command, port, slot).catch(() => undefined);
        if (owner !== undefined) return owner;
      }
      throw new Error(`no node knows who serves slot ${slot}`);
    },
    replicaOf: async (masterPort) => {
      const nodes = String(await command(masterPort, 'CLUSTER', 'NODES'));
      const self = nodes.split('\n').find((line) => line.includes('myself'))?.split(' ')[0];
      const replica = nodes.split('\n').find((line) => line.split(' ')[3] === self && /slave|replica/.test(line.split(' ')[2] ?? '') && !/fail/.test(line.split(' ')[2] ?? ''));
      const port = Number(/:(\d+)@/.exec(replica ?? '')?.[1]);
      if (!Number.isInteger(port)) throw new Error(`the master on ${masterPort} has no replica:\n${nodes}`);
      return port;
    },
    kill: async (port) => {
      connections.get(port)?.disconnect();
      await servers.get(port)?.kill();
      servers.delete(port);
    },
    restart: async (port) => {
      const args = configFiles.get(port) ?? [];
      rmSync(join(dir, args[args.indexOf('--dbfilename') + 1] ?? 'none'), { force: true });
      await start(port);
    },
    waitHealthy: async (timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const problem = await healthProblem(command, servers, replicasExpected);
        replicasExpected = problem === undefined ? 0 : replicasExpected;
        if (problem === undefined) return;
        if (Date.now() > deadline) throw new Error(`the test cluster is not healthy after ${timeoutMs} ms: ${problem}`);
        await sleep(100);
      }
    },
    stop: async () => {
      for (const client of connections.values()) client.disconnect();
      await Promise.all([...servers.values()].map((server) => server.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.waitHealthy();
  return cluster;
}

function firstRunning(servers: ReadonlyMap<number, TestRedisServer>): number {
  const [port] = servers.keys();
  if (port === undefined) throw new Error('the test cluster has no node');
  return port;
}

/** The port of the master that `port` says serves `slot`. */
async function slotOwner(command: TestRedisCluster['command'], port: number, slot: number): Promise<number | undefined> {
  const slots = (await command(port, 'CLUSTER', 'SLOTS')) as [number, number, [string, number, ...unknown[]], ...unknown[]][];
  const range = slots.find(([from, to]) => from <= slot && slot <= to);
  return range?.[2][1];
}

/**
 * Why the cluster is not healthy yet, or undefined when every node answers, says ok, agrees on
 * every slot's master and lists at least `replicas` replicas, and every replica's link is up.
 */
async function healthProblem(command: TestRedisCluster['command'], servers: ReadonlyMap<number, TestRedisServer>, replicas: number): Promise<string | undefined> {
  const views: string[] = [];
  for (const port of servers.keys()) {
    try {
      const info = String(await command(port, 'CLUSTER', 'INFO'));
      if (!info.includes('cluster_state:ok')) return `node ${port}: ${/cluster_state:\w+/.exec(info)?.[0] ?? 'no state'}`;
      const slots = (await command(port, 'CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      views.push(JSON.stringify(slots.map(([from, to, master]) => [from, to, master[1]]).sort((a, b) => Number(a[0]) - Number(b[0]))));
      const nodes = String(await command(port, 'CLUSTER', 'NODES'));
      if (/handshake|noaddr/.test(nodes)) return `node ${port} is still meeting the others`;
      const known = nodes.split('\n').filter((line) => /\bslave\b/.test(line.split(' ')[2] ?? '')).length;
      if (known < replicas) return `node ${port} knows ${known} of ${replicas} replicas`;
      const replication = String(await command(port, 'INFO', 'replication'));
      if (replication.includes('role:slave') && !replication.includes('master_link_status:up')) return `replica ${port} is not in sync with its master yet`;
    } catch (error) {
      return `node ${port}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
  return new Set(views).size === 1 ? undefined : 'the nodes do not agree yet on who serves each slot';
}
