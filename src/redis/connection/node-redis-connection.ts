import type { NodeRedisConnection } from './accepted-clients.js';
import { firstDropAfterUp } from './first-drop.js';
import { argumentsOf, redisCodeOf, scriptFailure, type ScriptCall, type ScriptConnection } from './script-connection.js';
import { retryWhileUnavailable, UNAVAILABLE_RETRY, type UnavailableRetryPolicy } from './unavailable-retry.js';

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

/**
 * True for node-redis's ErrorReply (Redis answered with an error; its subclasses SimpleError and
 * BlobError are what is thrown, all named 'Error'), as opposed to a socket or timeout failure.
 */
function isErrorReply(error: unknown): boolean {
  for (let proto: unknown = Object.getPrototypeOf(error); proto !== null && proto !== Error.prototype && typeof proto === 'object'; proto = Object.getPrototypeOf(proto)) {
    if ((proto as { constructor?: { name?: unknown } }).constructor?.name === 'ErrorReply') return true;
  }
  return false;
}

/** True for a node-redis cluster (`createCluster()`): it knows its masters and a client per node. */
export function isNodeRedisCluster(value: NodeRedisConnection): boolean {
  return typeof (value as { nodeClient?: unknown }).nodeClient === 'function' && 'masters' in value;
}

/**
 * Redis error replies that say the slot's master cannot serve the script yet: TRYAGAIN (its slot
 * is being moved and some of the bucket's keys already left), CLUSTERDOWN (no master serves it),
 * LOADING and MASTERDOWN (a node starting or resyncing). Any other error reply is final.
 */
const RETRIED_CODES = new Set(['TRYAGAIN', 'CLUSTERDOWN', 'LOADING', 'MASTERDOWN']);

/**
 * Scripts on a node-redis client or cluster (the `redis` package). node-redis routes EVALSHA by its
 * first key's slot, follows MOVED and ASK, queues commands while it reconnects (unless
 * `disableOfflineQueue`) and reconnects by its `reconnectStrategy`. What it reports instead of
 * retrying, the store retries here while the client is open (see {@link retryWhileUnavailable}):
 * TRYAGAIN, CLUSTERDOWN, LOADING, MASTERDOWN, and failures that are not Redis replies (a socket
 * reset under a command in flight, a cluster's command timeout, a node's client replaced in a
 * failover).
 */
export class NodeRedisScriptConnection implements ScriptConnection {
  readonly #client: NodeRedisClient;
  readonly #cluster: boolean;
  readonly #retry: UnavailableRetryPolicy;

  constructor(client: NodeRedisConnection, retry: UnavailableRetryPolicy = UNAVAILABLE_RETRY) {
    this.#client = client as unknown as NodeRedisClient;
    this.#cluster = isNodeRedisCluster(client);
    this.#retry = retry;
  }

  async run(call: ScriptCall): Promise<unknown> {
    return retryWhileUnavailable(() => this.#once(call, { keys: [...call.keys], arguments: argumentsOf(call).map(String) }), (error) => this.#transient(error), this.#retry).catch((error: unknown) => {
      throw scriptFailure(error);
    });
  }

  /** True for a failure that a later attempt may not meet; never once the app closed the client. */
  #transient(error: unknown): boolean {
    if (!this.#client.isOpen) return false;
    if (isErrorReply(error)) return RETRIED_CODES.has(redisCodeOf(error) ?? '');
    return true;
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
    const { up: onReady, down: onDown } = firstDropAfterUp(listener, !this.#cluster && (client as { isReady?: unknown }).isReady === true);
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
