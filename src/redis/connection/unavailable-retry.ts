import { setTimeout as sleep } from 'node:timers/promises';

/** How long a script call is retried while the node serving its slot cannot be reached. */
export interface UnavailableRetryPolicy {
  /** The first pause between attempts; it doubles up to `maxDelayMs`. */
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  /** No new attempt starts later than this after the first failure. */
  readonly forMs: number;
}

/**
 * The default: about what a Redis Cluster failover takes with `cluster-node-timeout` at its
 * default (15 s: the master is failed, then its replica elected), with room to spare, as a call
 * waiting on a single Redis waits in the client's offline queue.
 */
export const UNAVAILABLE_RETRY: UnavailableRetryPolicy = Object.freeze({ firstDelayMs: 100, maxDelayMs: 1_000, forMs: 30_000 });

/**
 * Runs `attempt` until it resolves; when it rejects with an error `transient` accepts (the cluster
 * could not reach the slot's master: a failover, a resharding step, a node restarting), tries
 * again after a growing pause, for at most `policy.forMs`; then, or for any other error, rejects
 * with that error. The store's scripts may run twice this way: each is idempotent (a permit
 * request keeps its permit id, a release or a restore writes the same values again).
 */
export async function retryWhileUnavailable<T>(attempt: () => Promise<T>, transient: (error: unknown) => boolean, policy: UnavailableRetryPolicy = UNAVAILABLE_RETRY): Promise<T> {
  let firstFailure: number | undefined;
  for (let delayMs = policy.firstDelayMs; ; delayMs = Math.min(policy.maxDelayMs, delayMs * 2)) {
    try {
      return await attempt();
    } catch (error) {
      firstFailure ??= performance.now();
      if (!transient(error) || performance.now() - firstFailure + delayMs > policy.forMs) throw error;
    }
    await sleep(delayMs);
  }
}
