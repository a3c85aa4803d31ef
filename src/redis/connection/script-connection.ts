import type { LuaScript } from '../lua-script.js';
import { RedisStoreError } from '../errors/redis-store-error.js';

/** A script call's ARGV. */
export type ScriptArguments = readonly (string | number)[];

/** One script call: its KEYS (all in one hash slot) and ARGV. */
export interface ScriptCall {
  readonly script: LuaScript;
  readonly keys: readonly string[];
  /**
   * ARGV, or what makes it when the call is written to the client (after its wait for a turn,
   * calls-in-flight.ts): an argument that says how long ago something happened must be taken
   * then, or Redis would date it later by the wait (a release's answer, counting a window from it).
   */
  readonly args: ScriptArguments | (() => ScriptArguments);
}

/** The call's ARGV, as of now. */
export function argumentsOf(call: ScriptCall): ScriptArguments {
  return typeof call.args === 'function' ? call.args() : call.args;
}

/**
 * What the store needs of a Redis client, whichever library made it (src/redis/connection/*):
 * scripts run by their SHA-1 (EVALSHA, then EVAL when the node answers NOSCRIPT), routed to the
 * node that serves their keys' slot, and word of a dropped connection.
 */
export interface ScriptConnection {
  /** Runs one script; resolves to its raw reply. */
  run(call: ScriptCall): Promise<unknown>;
  /**
   * Calls `listener` each time a connection the store's buckets may live on drops after being up
   * (a crash or a failover loses Redis's data no later than that). Returns an unsubscribe function.
   */
  onDrop(listener: () => void): () => void;
  /** Ends the connection, resolving once it has ended (for a client the store created). */
  end(): Promise<void>;
}

/**
 * Redis's error code: the first word of an error reply (`'NOSCRIPT'`, `'READONLY'`, `'MOVED'`, ...),
 * also when ioredis's Cluster quotes it after giving up ("Too many Cluster redirections. Last
 * error: ReplyError: TRYAGAIN ...").
 */
export function redisCodeOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  return /^([A-Z]+) /.exec(error.message)?.[1] ?? /^Too many Cluster redirections\. Last error: (?:\w+: )?([A-Z]+) /.exec(error.message)?.[1];
}

/** Errors a client reports when a script ran on a node that cannot take it; see {@link RedisStoreError}. */
const STORE_ERROR_REMEDIES: Readonly<Record<string, string>> = {
  READONLY:
    'the client is connected to a read-only replica. Point it at the master, or pass an ioredis Cluster or a node-redis createCluster() client, which follow failovers',
  MOVED: "the client is connected to one node of a Redis Cluster and the bucket's slot is served by another. Pass an ioredis Cluster or a node-redis createCluster() client",
  ASK: "the client is connected to one node of a Redis Cluster and the bucket's slot is being moved to another. Pass an ioredis Cluster or a node-redis createCluster() client",
  TRYAGAIN: "the bucket's slot was being moved between cluster nodes (resharding) for longer than the store retries. Try again once the resharding is done",
  CLUSTERDOWN: "the Redis Cluster had no master for the bucket's slot for longer than the store retries. Try again once the cluster has failed over",
};

/**
 * The error a permit script's failure rejects with: a {@link RedisStoreError} for the Redis errors
 * that say the client or the cluster cannot serve the bucket now, else the client's own error.
 */
export function scriptFailure(error: unknown): unknown {
  const code = redisCodeOf(error);
  const remedy = code === undefined ? undefined : STORE_ERROR_REMEDIES[code];
  if (code === undefined || remedy === undefined) return error;
  return new RedisStoreError(`Failed to run the rate-limit permit script on Redis (${code}): ${remedy}.`, { operation: 'RedisPermitStore', redisCode: code, cause: error });
}
