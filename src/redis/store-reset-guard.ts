import { randomUUID } from 'node:crypto';
import type { AcquireRequest, AcquireResult } from '../rate-limit/permit-store.js';
import type { ScriptConnection } from './connection/script-connection.js';
import { OwnPermitLedger, type OwnPermit } from './own-permit-ledger.js';
import type { PermitKeys } from './permit-keys.js';
import { restorePermitsScript } from './restore-permits-script.js';
import { StoreGenerations } from './store-generation.js';

/** One permit request on its way to the acquire script, as the reset check sees it. */
export interface GuardedAsk {
  /** The store's clock when the request left. */
  readonly sentAt: number;
  /** The generation the request expects ('' for none). */
  readonly expected: string;
  /** The acquire script's last KEYS (see src/redis/acquire-reset-check.ts). */
  readonly keys: readonly string[];
  /** The acquire script's last ARGV. */
  readonly args: readonly (string | number)[];
}

/** The reset check's part of an acquire reply: its last two elements. */
export interface GenerationReply {
  generation: string;
  /** Milliseconds until the bucket's recovery ends; 0 when it does not recover (what a wait is for). */
  recoveryMs: number;
}

/**
 * Keeps a {@link RedisPermitStore} within the limit when Redis loses the bucket's data (a restart
 * without persistence, a failover to an empty replica, a flush): the lost count must not read as an
 * empty window.
 *
 * - Every permit the store grants is kept in an {@link OwnPermitLedger} until it stops counting.
 * - Each permit request carries the bucket's generation as this store last saw it, when the store
 *   granted a permit within window + lease. The acquire script refuses a request whose generation
 *   is not the bucket's, and marks the bucket as recovering until the new generation's creation +
 *   window + lease, when nothing granted before the loss counts any more.
 * - The store then writes its permits that still count back to Redis with their times, and adds
 *   to the recovery's room the permits it held when Redis lost them (when the connection dropped;
 *   now when it did not), in one script; then it asks again.
 * - While the bucket recovers, Redis grants a permit only while it counts fewer permits than that
 *   room (the sum over the stores that saw the loss), besides the permit rule. Before the loss
 *   those stores and the processes that never came back held at most the limit together; the
 *   latter's lost permits still count at the server, so the room is all that is free. Any process
 *   may use it (one that finished leaves its part to the others; one that joined later may take
 *   what frees).
 *
 * The gap: a store that granted no permit of the bucket within window + lease cannot tell a loss
 * from a fresh bucket. Until a store that did asks again and marks the recovery, it may use the
 * whole limit while permits lost from Redis still count at the server.
 */
export class StoreResetGuard {
  readonly #connection: ScriptConnection;
  readonly #now: () => number;
  readonly #clockArgument: () => string;
  /** This store's field in a recovery's hash: written once per generation, so a restore sent again adds nothing. */
  readonly #recoveryField = `held:${randomUUID()}`;
  readonly #ledger = new OwnPermitLedger();
  readonly #generations = new StoreGenerations();
  /** Recoveries running, per bucket: every request that saw the loss waits for the one. */
  readonly #recoveries = new Map<string, Promise<void>>();
  /** Stops hearing of dropped connections. */
  readonly #stopWatching: () => void;

  /** Watches `connection` until {@link close}: a drop is the latest moment a crash or failover loses the data. */
  constructor(connection: ScriptConnection, clock: { now: () => number; argument: () => string }) {
    this.#connection = connection;
    this.#now = clock.now;
    this.#clockArgument = clock.argument;
    this.#stopWatching = connection.onDrop(() => this.#generations.disconnected(this.#ledger.countedPerBucket(this.#now())));
  }

  /** A new permit id of this store (the ledger finds its permits by their number). */
  newPermitId(): string {
    return this.#ledger.ids.next();
  }

  /** Stops watching the connection. */
  close(): void {
    this.#stopWatching();
  }

  /** What a permit request adds to the acquire script's KEYS and ARGV (`generationSeed`: a random id, for a generation it creates). */
  ask(request: AcquireRequest, keys: PermitKeys, generationSeed: string): GuardedAsk {
    const sentAt = this.#now();
    const expected = this.#generations.expected(request.bucket, sentAt);
    return {
      sentAt,
      expected,
      keys: [keys.generation, keys.recovery],
      args: [expected, generationSeed, request.windowMs + request.leaseMs, this.#clockArgument()],
    };
  }

  /** True when the reply shows that Redis lost the data this store counted on: {@link recover}, then ask again. */
  isReset(ask: GuardedAsk, reply: GenerationReply): boolean {
    return ask.expected !== '' && ask.expected !== reply.generation;
  }

  /** Records the answer to a request that showed no loss. */
  answered(request: AcquireRequest, ask: GuardedAsk, reply: GenerationReply, result: AcquireResult): void {
    if (!result.granted) {
      this.#generations.seen(request.bucket, reply.generation, undefined);
      return;
    }
    this.#ledger.granted(request.bucket, result.permitId, { at: ask.sentAt, leaseMs: request.leaseMs, windowMs: request.windowMs, background: request.lane === 'background' });
    this.#generations.seen(request.bucket, reply.generation, { grantedAt: ask.sentAt, spanMs: request.windowMs + request.leaseMs });
  }

  /** Writes this store's permits of the bucket back to Redis under `generation`, adding what it held to the recovery's room. */
  recover(request: AcquireRequest, keys: PermitKeys, generation: string): Promise<void> {
    const running = this.#recoveries.get(request.bucket);
    if (running !== undefined) return running;
    // A request that left before the recovery ended saw the loss too: recovered already.
    if (this.#generations.current(request.bucket) === generation) return Promise.resolve();
    const recovery = this.#restore(request, keys, generation).finally(() => this.#recoveries.delete(request.bucket));
    this.#recoveries.set(request.bucket, recovery);
    return recovery;
  }

  /** Records the answer of a permit's request (its release). */
  released(bucket: string, permitId: string, windowMs: number): void {
    this.#ledger.answered(bucket, permitId, this.#now(), windowMs);
  }

  /** Forgets a permit whose request never left (given back): it is not written back after a loss. */
  givenBack(bucket: string, permitId: string): void {
    this.#ledger.remove(bucket, permitId);
  }

  async #restore(request: AcquireRequest, keys: PermitKeys, generation: string): Promise<void> {
    const now = this.#now();
    const held = this.#generations.heldAtLoss(request.bucket, this.#ledger.counted(request.bucket, now));
    const permits = this.#ledger.permits(request.bucket, now);
    const restored = await this.#connection.run({
      script: restorePermitsScript,
      keys: [keys.answered, keys.inFlight, keys.background, keys.generation, keys.recovery],
      args: [this.#clockArgument(), generation, request.windowMs, this.#recoveryField, held, ...permits.flatMap((permit) => restoreArguments(permit, now))],
    });
    // 0: Redis lost the data again meanwhile; the next request sees it and recovers again.
    if (restored === 1) this.#generations.recovered(request.bucket, generation);
  }
}

/** The reset check's elements at the end of an acquire reply, and the rule's reply before them. */
export function splitGenerationReply(reply: unknown): { rule: unknown; generation: GenerationReply | undefined } {
  if (!Array.isArray(reply) || reply.length < 2) return { rule: reply, generation: undefined };
  const generation: unknown = reply.at(-2);
  const recoveryMs: unknown = reply.at(-1);
  if (typeof generation !== 'string' || typeof recoveryMs !== 'number') return { rule: reply, generation: undefined };
  return { rule: reply.slice(0, -2), generation: { generation, recoveryMs } };
}

function restoreArguments(permit: OwnPermit, now: number): (string | number)[] {
  return [permit.id, permit.answered ? 'a' : 'i', Math.max(1, Math.ceil(permit.until - now)), permit.background ? '1' : '0'];
}
