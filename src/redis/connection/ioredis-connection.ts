import { once } from 'node:events';
import type { IoredisConnection } from './accepted-clients.js';
import { firstDropAfterUp } from './first-drop.js';
import { RedisStoreError } from '../errors/redis-store-error.js';
import { argumentsOf, redisCodeOf, scriptFailure, type ScriptCall, type ScriptConnection } from './script-connection.js';
import { retryWhileUnavailable, UNAVAILABLE_RETRY, type UnavailableRetryPolicy } from './unavailable-retry.js';

/** The part of an ioredis `Redis` or `Cluster` the store calls. */
interface IoredisClient {
  readonly isCluster: boolean;
  readonly status: string;
  evalsha(sha1: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown>;
  quit(): Promise<unknown>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** True for an ioredis `Redis` or `Cluster` (ioredis 5 or 6), recognised by shape. */
export function isIoredis(value: object): value is IoredisConnection {
  const client = value as Partial<Record<'isCluster' | 'status' | 'evalsha' | 'eval' | 'on', unknown>>;
  return typeof client.isCluster === 'boolean' && typeof client.status === 'string' && typeof client.evalsha === 'function' && typeof client.eval === 'function' && typeof client.on === 'function';
}

/** Redis error replies that say the slot's master cannot serve the script yet (see the node-redis adapter). */
const RETRIED_CODES = new Set(['TRYAGAIN', 'CLUSTERDOWN', 'LOADING', 'MASTERDOWN']);

/**
 * Scripts on an ioredis `Redis` or `Cluster`. ioredis routes EVALSHA by its first key's slot,
 * queues commands while it reconnects (`enableOfflineQueue`) and sends again those on a connection
 * that broke (`autoResendUnfulfilledCommands`); a `Redis` gives up after `maxRetriesPerRequest`, as
 * the app configured it. A `Cluster` follows MOVED and ASK and retries TRYAGAIN, CLUSTERDOWN and a
 * lost connection, but only `maxRedirections` times (16, about 1-2 s): less than a failover takes.
 * On a Cluster the store retries what ioredis gave up on while the cluster is not ended (see
 * {@link retryWhileUnavailable}): "Too many Cluster redirections", a closed node connection, a
 * failed slots refresh, and the error replies above.
 */
export class IoredisScriptConnection implements ScriptConnection {
  readonly #client: IoredisClient;
  readonly #retry: UnavailableRetryPolicy;

  constructor(client: IoredisConnection, retry: UnavailableRetryPolicy = UNAVAILABLE_RETRY) {
    this.#client = client as unknown as IoredisClient;
    this.#retry = retry;
  }

  async run(call: ScriptCall): Promise<unknown> {
    if (!this.#client.isCluster) return this.#once(call);
    return retryWhileUnavailable(() => this.#once(call), (error) => this.#transient(error), this.#retry);
  }

  /** True for a cluster failure that a later attempt may not meet; never once the app ended the cluster. */
  #transient(error: unknown): boolean {
    const cause = error instanceof RedisStoreError ? error.cause : error;
    if (this.#client.status === 'end' || (this.#client as { manuallyClosing?: unknown }).manuallyClosing === true) return false;
    // ioredis's ReplyError: Redis answered with an error.
    if (cause instanceof Error && cause.name === 'ReplyError') return RETRIED_CODES.has(redisCodeOf(cause) ?? '');
    return true;
  }

  async #once(call: ScriptCall): Promise<unknown> {
    const { script, keys } = call;
    const args = argumentsOf(call);
    try {
      return await this.#client.evalsha(script.sha1, keys.length, ...keys, ...args);
    } catch (error) {
      if (redisCodeOf(error) !== 'NOSCRIPT') throw scriptFailure(error);
    }
    // The node does not know the script yet (a restart, SCRIPT FLUSH, a new node): send its text.
    return this.#client.eval(script.source, keys.length, ...keys, ...args).catch((error: unknown) => {
      throw scriptFailure(error);
    });
  }

  onDrop(listener: () => void): () => void {
    const client = this.#client;
    // Redis: 'close' each time the connection drops (and again after each failed reconnection:
    // only the first after 'ready' counts). Cluster: a node's connection ends for good ('-node')
    // when the node goes away; the cluster as a whole also emits 'close'.
    const { up: onReady, down: onClose } = firstDropAfterUp(listener, client.status === 'ready');
    const onNodeGone = (): void => listener();
    client.on('ready', onReady);
    client.on('close', onClose);
    if (client.isCluster) client.on('-node', onNodeGone);
    return () => {
      client.off('ready', onReady);
      client.off('close', onClose);
      if (client.isCluster) client.off('-node', onNodeGone);
    };
  }

  async end(): Promise<void> {
    if (this.#client.status === 'end') return;
    const ended = once(this.#client as unknown as NodeJS.EventEmitter, 'end');
    await this.#client.quit();
    await ended;
  }
}
