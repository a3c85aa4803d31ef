import { setTimeout as sleep } from 'node:timers/promises';
import type { NodeRedisConnection } from './accepted-clients.js';
import { redisCodeOf, scriptFailure, type ScriptCall, type ScriptConnection } from './script-connection.js';

/** Script options of node-redis's `evalSha` and `eval` (4, 5 and 6 alike). */
interface ScriptOptions {
  keys: string[];
  arguments: string[];
}

/** The part of a node-redis client or cluster the store calls. */
interface NodeRedisClient {
  readonly isOpen: boolean;
  evalSha(sha1: string, options: ScriptOptions): Promise<unknown>;
  eval(script: string, options: ScriptOptions): Promise<unknown>;
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** True for a node-redis client or cluster (the `redis` package, 4 to 6), recognised by shape. */
export function isNodeRedis(value: object): value is NodeRedisConnection {
  const client = value as Partial<Record<'isOpen' | 'evalSha' | 'eval' | 'on', unknown>>;
  return typeof client.isOpen === 'boolean' && typeof client.evalSha === 'function' && typeof client.eval === 'function' && typeof client.on === 'function';
}

/** True for a node-redis cluster (`createCluster()`): it knows its masters and a client per node. */
export function isNodeRedisCluster(value: NodeRedisConnection): boolean {
  return typeof (value as { nodeClient?: unknown }).nodeClient === 'function' && 'masters' in value;
}

/**
 * How long the store retries a script that a cluster node answered TRYAGAIN (its slot is being
 * moved and some of the bucket's keys already left) or CLUSTERDOWN (no master serves it yet): in
 * all, about what ioredis's Cluster waits (16 redirections of 100 ms).
 */
const CLUSTER_RETRY = Object.freeze({ delayMs: 100, attempts: 20 });
const RETRIED_CODES = new Set(['TRYAGAIN', 'CLUSTERDOWN']);

/**
 * Scripts on a node-redis client or cluster (the `redis` package). node-redis routes EVALSHA by its
 * first key's slot and follows MOVED and ASK; TRYAGAIN and CLUSTERDOWN it reports, and the store
 * retries them here. It queues commands while it reconnects (unless `disableOfflineQueue`) and
 * reconnects by its `reconnectStrategy`.
 */
export class NodeRedisScriptConnection implements ScriptConnection {
  readonly #client: NodeRedisClient;
  readonly #cluster: boolean;

  constructor(client: NodeRedisConnection) {
    this.#client = client as unknown as NodeRedisClient;
    this.#cluster = isNodeRedisCluster(client);
  }

  async run(call: ScriptCall): Promise<unknown> {
    const options: ScriptOptions = { keys: [...call.keys], arguments: call.args.map(String) };
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.#once(call, options);
      } catch (error) {
        // The script did not run: the node refused it before looking at the keys.
        if (!this.#cluster || attempt >= CLUSTER_RETRY.attempts || !RETRIED_CODES.has(redisCodeOf(error) ?? '')) throw scriptFailure(error);
      }
      await sleep(CLUSTER_RETRY.delayMs);
    }
  }

  async #once(call: ScriptCall, options: ScriptOptions): Promise<unknown> {
    try {
      return await this.#client.evalSha(call.script.sha1, options);
    } catch (error) {
      if (redisCodeOf(error) !== 'NOSCRIPT') throw error;
    }
    return this.#client.eval(call.script.source, options);
  }

  onDrop(listener: () => void): () => void {
    const client = this.#client;
    // A client: 'reconnecting' once its socket failed (after 'error', which is left to the app:
    // node-redis wants it listened to) and again after each failed attempt (only the first after
    // 'ready' counts), 'end' when closed. A cluster reports each node's connection
    // ('node-reconnecting', 'node-disconnect') and its own 'disconnect'.
    let up = !this.#cluster && (client as { isReady?: unknown }).isReady === true;
    const onReady = (): void => {
      up = true;
    };
    const onDown = (): void => {
      if (up) listener();
      up = false;
    };
    const onNodeDown = (): void => listener();
    const events: [string, () => void][] = this.#cluster
      ? [['node-reconnecting', onNodeDown], ['node-disconnect', onNodeDown], ['disconnect', onNodeDown]]
      : [['ready', onReady], ['reconnecting', onDown], ['end', onDown]];
    for (const [event, handler] of events) client.on(event, handler);
    return () => {
      for (const [event, handler] of events) client.off(event, handler);
    };
  }

  async end(): Promise<void> {
    if (!this.#client.isOpen) return;
    await (this.#client.close?.() ?? this.#client.quit?.());
  }
}
