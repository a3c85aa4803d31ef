import { InvalidInputError } from '../errors/invalid-input-error.js';
import { assertValidAcquireRequest, assertValidPermitCount } from '../rate-limit/acquire-request-checks.js';
import type { AcquireRequest, AcquireResult, PermitStore } from '../rate-limit/permit-store.js';
import { ReleaseListeners } from '../rate-limit/release-listeners.js';
import { permitKeys, type PermitKeys } from './permit-keys.js';
import { BURST_MEMORY_WINDOWS, QUEUE_MEMORY_WINDOWS, RAMP_RESTART_WINDOWS, WAITER_HOLD_GRACE_MS } from '../rate-limit/lane-rule.js';
import { acquireScript, giveBackScript, learnBudgetScript, pauseScript, releaseScript } from './permit-scripts.js';
import { splitGenerationReply, StoreResetGuard } from './store-reset-guard.js';
import type { RedisConnection } from './connection/accepted-clients.js';
import { clientForUrl, isRedisUrl, scriptConnectionFor } from './connection/open-connection.js';
import type { ScriptCall, ScriptConnection } from './connection/script-connection.js';
import type { LuaScript } from './lua-script.js';
import { bucketKeysShareASlot } from './hash-slot.js';
import { PendingReleases, type ReleaseBatch } from './pending-releases.js';

/** Options of {@link RedisPermitStore}. */
export interface RedisPermitStoreOptions {
  /**
   * Prepended to every key this store writes (after the client's own `keyPrefix`, if any).
   * @default 'school-admin-sdk:'
   */
  keyPrefix?: string;
  /**
   * Replaces Redis `TIME` as the clock, in epoch milliseconds. Only for tests with virtual time:
   * every store sharing a bucket must then read this same clock.
   * @default undefined (Redis TIME, the one clock of all processes)
   */
  clock?: () => number;
}

const DEFAULT_KEY_PREFIX = 'school-admin-sdk:';
/** Permits one script call grants at most: bounds the script's run, during which Redis serves nobody else. */
const MAX_PERMITS_PER_CALL = 256;

/**
 * The {@link PermitStore} shared by every process and machine that uses one API key: the permit
 * rule decided in atomic Lua scripts on Redis, on Redis's clock.
 *
 * - A process killed while holding permits blocks them only until their lease ends, then for one
 *   window as if answered then; choose `leaseMs` longer than any request can take.
 * - A pause after a 429 stops every client of the bucket; a limit learnt from a 429 applies to all.
 * - Interactive requests of any process overtake background ones (see {@link PermitStore}).
 * - Keys hold only the bucket name (a hash of the API key) and expire once the bucket is idle
 *   (nothing counts any more: its window, plus the lease of any permit not released, has passed);
 *   the bucket's generation stays as long again, so that idleness never looks like a loss.
 * - `tryAcquireMany` grants up to 256 permits in one script call (one round trip); a client asks
 *   with it for the calls made at once and for those waiting when slots free.
 * - `onRelease` tells about releases (and permits given back) made through this store instance;
 *   other processes' releases are seen at the next `tryAcquire` (its `retryAfterMs`).
 * - When Redis loses its data (a restart without persistence, a failover to a replica without the
 *   bucket, a flush), the lost count does not read as an empty window. Each store keeps the permits
 *   it granted until they stop counting, and each bucket has a generation in Redis that outlives its
 *   other keys. A store that granted a permit within window + lease and sees another generation
 *   writes its permits back and marks the bucket as recovering until window + lease after the loss.
 *   Meanwhile the key's processes together hold at most what the stores that saw the loss held when
 *   it happened (taken when the connection dropped). Not covered: a store that granted nothing
 *   within window + lease cannot tell a loss from a fresh bucket, and a failover that loses only the
 *   latest writes keeps the generation (docs/architecture.md, "When the store loses its data").
 * - While Redis is down, calls wait for their permit in ioredis's offline queue and go once it is
 *   back. When ioredis gives up (`maxRetriesPerRequest` reconnection attempts, about 70 s with
 *   ioredis 6's defaults), the waiting calls reject with its `MaxRetriesPerRequestError`, unsent.
 *   Pass a client with other options to fail sooner. A cluster client (ioredis `Cluster`, node-redis
 *   `createCluster()`) and a node-redis client give up sooner than a failover takes: the store
 *   retries such a script call while the bucket's node cannot be reached, for up to 30 s.
 *
 * @example
 * ```ts
 * import { AdminClient } from 'school-admin-sdk';
 * import { RedisPermitStore } from 'school-admin-sdk/redis';
 * import { Redis } from 'ioredis';
 *
 * const store = new RedisPermitStore(new Redis(process.env.REDIS_URL!));
 * const admin = new AdminClient({ apiKey, baseUrl, limits: { store } });
 * ```
 */
export class RedisPermitStore<Client extends RedisConnection = RedisConnection> implements PermitStore {
  /** The client the store runs its scripts on (the one passed in, or the one it made from a URL). */
  readonly client: Client;
  readonly #connection: ScriptConnection;
  readonly #ownsClient: boolean;
  readonly #keyPrefix: string;
  readonly #clock: (() => number) | undefined;
  readonly #listeners = new ReleaseListeners();
  readonly #resets: StoreResetGuard;
  readonly #pending = new PendingReleases((batches) => void this.#sendReleases(batches));

  /**
   * @param connection An ioredis `Redis` or `Cluster`, or a connected node-redis client or cluster
   *   (left open by {@link RedisPermitStore.close}); or a `redis://` / `rediss://` URL for a client
   *   the store makes (with ioredis when installed, else node-redis) and closes.
   * @throws {InvalidInputError} for anything else (`field: 'connection'`: a plain object, a Map,
   *   options, undefined, a client whose connection ended), or for a `keyPrefix` that would split
   *   a bucket's keys over cluster slots (`field: 'keyPrefix'`); the message names what was passed.
   * @throws {DependencyLoadError} for a URL when neither ioredis nor redis is installed.
   */
  constructor(connection: Client | string, options: RedisPermitStoreOptions = {}) {
    const { keyPrefix = DEFAULT_KEY_PREFIX, clock } = checkedOptions(options);
    this.#ownsClient = isRedisUrl(connection);
    this.client = (isRedisUrl(connection) ? clientForUrl(connection) : connection) as Client;
    this.#connection = scriptConnectionFor(this.client);
    this.#keyPrefix = keyPrefix;
    this.#clock = clock;
    this.#resets = new StoreResetGuard(this.#connection, { now: this.#clock ?? Date.now, argument: () => this.#clockArgument() });
  }

  /** {@inheritDoc PermitStore.tryAcquire} */
  async tryAcquire(request: AcquireRequest): Promise<AcquireResult> {
    assertValidAcquireRequest(request);
    const [result] = await this.#acquire(request, 1);
    if (result === undefined) throw unexpectedReply();
    return result;
  }

  /** {@inheritDoc PermitStore.tryAcquireMany} */
  async tryAcquireMany(request: AcquireRequest, count: number): Promise<AcquireResult[]> {
    assertValidAcquireRequest(request);
    assertValidPermitCount(count);
    return this.#acquire(request, Math.min(count, MAX_PERMITS_PER_CALL));
  }

  async #acquire(request: AcquireRequest, count: number): Promise<AcquireResult[]> {
    const keys = this.#keys(request.bucket);
    // A reply that shows Redis lost the bucket's data is followed by a recovery and one more try.
    for (let attempt = 1; ; attempt += 1) {
      const permitIds = Array.from({ length: count }, () => this.#resets.newPermitId());
      const [permitId = ''] = permitIds;
      const ask = this.#resets.ask(request, keys, permitId);
      // The bucket's releases waiting for the turn of the event loop go with this request.
      const riding = this.#pending.take(request.bucket);
      let reply: unknown;
      try {
        const rule = [...acquireArguments(request, permitId, this.#clockArgument()), permitIds.slice(1).join(' ')];
        // The riding releases' "ms ago" is taken when the call leaves (it may wait for a turn).
        reply = await this.#run(acquireScript, [...acquireKeys(keys), ...ask.keys], () => [...rule, riding?.argument(this.#now()) ?? '', ...ask.args]);
      } catch (error) {
        if (riding !== undefined) this.#pending.putBack(request.bucket, riding);
        throw error;
      }
      const { rest, released } = splitReleasedCount(reply);
      const { rule, generation } = splitGenerationReply(rest);
      const results = parseAcquireReply(rule, permitIds);
      if (generation === undefined) throw unexpectedReply();
      if (!this.#resets.isReset(ask, generation)) {
        if (riding !== undefined) this.#delivered(request.bucket, riding, released);
        for (const result of results) this.#resets.answered(request, ask, generation, result);
        return results;
      }
      // Redis lost the data the releases were for: the recovery writes them back with the rest; sent again, they change nothing.
      if (riding !== undefined) this.#pending.putBack(request.bucket, riding);
      if (attempt > 1) return results;
      await this.#resets.recover(request, keys, generation.generation);
    }
  }

  /**
   * Marks the permit's request as answered now: it counts for the bucket's window more (the
   * request's `windowMs`, or the learnt window), then frees (as {@link PermitStore.release} says).
   * The release rides with the bucket's next permit request when this process makes one before the
   * event loop turns, else goes at the turn, with the bucket's other releases, in one script call;
   * the answer is dated now either way. Resolves once it reached Redis.
   */
  release(bucket: string, permitId: string, windowMs: number): Promise<void> {
    this.#resets.released(bucket, permitId, windowMs);
    return this.#pending.add(bucket, permitId, this.#now(), windowMs);
  }

  /** {@inheritDoc PermitStore.giveBack} */
  async giveBack(bucket: string, permitId: string): Promise<void> {
    this.#resets.givenBack(bucket, permitId);
    const keys = this.#keys(bucket);
    const givenBack = await this.#run(giveBackScript, [keys.inFlight, keys.background, keys.interactivePermits, keys.sent], [permitId]);
    if (givenBack === 1) this.#listeners.notify(bucket, true);
  }

  /**
   * Stops every client of the bucket from starting requests until `untilMs` (never shortens a
   * longer pause). `untilMs` is read on this process's clock and stored on Redis's as a duration from now, so
   * clock skew between machines does not move the pause.
   */
  async pause(bucket: string, untilMs: number): Promise<void> {
    const durationMs = Math.ceil(untilMs - (this.#clock ?? Date.now)());
    if (durationMs <= 0) return;
    await this.#run(pauseScript, [this.#keys(bucket).paused], [durationMs, this.#clockArgument()]);
  }

  /** {@inheritDoc PermitStore.learnLimit} */
  async learnLimit(bucket: string, limit: number, keepMs: number): Promise<void> {
    if (!(Number.isSafeInteger(limit) && limit >= 1)) throw new RangeError(`Failed to record the learnt limit: it must be a positive integer, got ${String(limit)}. Pass the server's stated limit.`);
    await this.#run(learnBudgetScript, [this.#keys(bucket).learntLimit], [limit, Math.max(1, Math.ceil(keepMs)), this.#clockArgument()]);
  }

  /** {@inheritDoc PermitStore.learnWindow} */
  async learnWindow(bucket: string, windowMs: number, keepMs: number): Promise<void> {
    if (!(Number.isSafeInteger(windowMs) && windowMs >= 1)) throw new RangeError(`Failed to record the learnt window: it must be a positive whole number of milliseconds, got ${String(windowMs)}. Pass the window the server's answers revealed.`);
    await this.#run(learnBudgetScript, [this.#keys(bucket).learntWindow], [windowMs, Math.max(1, Math.ceil(keepMs)), this.#clockArgument()]);
  }

  /** {@inheritDoc PermitStore.onRelease} */
  onRelease(bucket: string, listener: (givenBack?: boolean) => void): () => void {
    return this.#listeners.add(bucket, listener);
  }

  /**
   * Closes the connection when the store created it, resolving once it has ended; a client passed
   * in stays open.
   */
  async close(): Promise<void> {
    await Promise.all(this.#sendReleases(this.#pending.takeAll()));
    this.#resets.close();
    if (this.#ownsClient) await this.#connection.end();
  }

  /** Sends each bucket's waiting releases in one script call. */
  #sendReleases(batches: Map<string, ReleaseBatch>): Promise<void>[] {
    return [...batches].map(async ([bucket, batch]) => {
      const keys = this.#keys(bucket);
      try {
        const released = await this.#run(releaseScript, [keys.answered, keys.inFlight, keys.background, keys.interactivePermits], () => [batch.windowMs, this.#clockArgument(), batch.argument(this.#now())]);
        this.#delivered(bucket, batch, typeof released === 'number' ? released : 0);
      } catch (error) {
        // As a release sent on its own would: the caller may ignore it (the ledger has the answer).
        batch.reject(error);
      }
    });
  }

  /** A batch of releases reached Redis: its callers are told, and the bucket's listeners once per permit that was in flight. */
  #delivered(bucket: string, batch: ReleaseBatch, released: number): void {
    batch.resolve();
    for (let index = 0; index < released; index += 1) this.#listeners.notify(bucket);
  }

  #now(): number {
    return (this.#clock ?? Date.now)();
  }

  #run(script: LuaScript, keys: readonly string[], args: ScriptCall['args']): Promise<unknown> {
    return this.#connection.run({ script, keys, args });
  }

  #keys(bucket: string): PermitKeys {
    return permitKeys(this.#keyPrefix, bucket);
  }

  #clockArgument(): string {
    return this.#clock === undefined ? '' : String(this.#clock());
  }
}

/**
 * Creates a {@link RedisPermitStore} on a new connection to `url`; `close()` ends it.
 *
 * @example
 * ```ts
 * const store = createRedisPermitStore('redis://127.0.0.1:6379/0');
 * const admin = new AdminClient({ apiKey, baseUrl, limits: { store } });
 * // ... at shutdown:
 * await store.close();
 * ```
 */
export function createRedisPermitStore(url: string, options: RedisPermitStoreOptions = {}): RedisPermitStore {
  if (!isRedisUrl(url)) throw new InvalidInputError('Failed to create the Redis permit store: the URL must start with redis:// or rediss://. Pass the URL of your Redis server (e.g. redis://127.0.0.1:6379).', { operation: 'createRedisPermitStore', field: 'url' });
  return new RedisPermitStore(url, options);
}

/** The options, checked: a wrong type is refused here rather than failing at the first call. */
function checkedOptions(options: RedisPermitStoreOptions): RedisPermitStoreOptions {
  const refuse = (field: string, why: string): InvalidInputError => new InvalidInputError(`Failed to create RedisPermitStore: ${why}.`, { operation: 'RedisPermitStore', field });
  if (typeof options !== 'object' || options === null) throw refuse('options', 'options must be an object (keyPrefix, clock)');
  const { keyPrefix, clock } = options;
  if (keyPrefix !== undefined && typeof keyPrefix !== 'string') throw refuse('keyPrefix', `keyPrefix must be a string, got a ${typeof keyPrefix}`);
  if (keyPrefix !== undefined && !bucketKeysShareASlot(keyPrefix)) {
    throw refuse('keyPrefix', "keyPrefix holds an empty hash tag ('{}'), which would spread one bucket's keys over several Redis Cluster slots. Remove the '{}'");
  }
  if (clock !== undefined && typeof clock !== 'function') throw refuse('clock', `clock must be a function returning epoch milliseconds, got a ${typeof clock}`);
  return options;
}

/** The count of riding releases that ends a reply of the rule (not one of the reset check's own refusals), and the rest. */
function splitReleasedCount(reply: unknown): { rest: unknown; released: number } {
  if (!Array.isArray(reply) || typeof reply.at(-2) !== 'number' || typeof reply.at(-1) !== 'number') return { rest: reply, released: 0 };
  return { rest: reply.slice(0, -1), released: reply.at(-1) as number };
}

/** The acquire script's KEYS before the reset check's (src/redis/permit-scripts.ts). */
function acquireKeys(keys: PermitKeys): string[] {
  return [keys.answered, keys.inFlight, keys.paused, keys.interactive, keys.learntLimit, keys.background, keys.learntWindow, keys.interactivePermits, keys.sent];
}

/** The acquire script's ARGV for the rule (src/redis/permit-scripts.ts), batch mode last, before the more permit ids, the riding releases and the reset check's. */
function acquireArguments(request: AcquireRequest, permitId: string, clock: string): (string | number)[] {
  return [
    request.limit,
    request.windowMs,
    request.leaseMs,
    permitId,
    clock,
    request.lane ?? 'interactive',
    request.reserve ?? 0,
    request.waiter ?? '',
    request.limitIsCeiling === true ? '1' : '0',
    request.share ?? 1,
    WAITER_HOLD_GRACE_MS,
    request.windowIsFloor === true ? '1' : '0',
    request.demand ?? 1,
    BURST_MEMORY_WINDOWS,
    request.ramp ?? 0,
    RAMP_RESTART_WINDOWS,
    request.burst ?? '',
    QUEUE_MEMORY_WINDOWS,
    request.batch === true ? '1' : '0',
  ];
}

/** The rule's reply: the permits granted (the first `granted` of `permitIds`), or the refusal. */
function parseAcquireReply(reply: unknown, permitIds: readonly string[]): AcquireResult[] {
  if (Array.isArray(reply)) {
    const [granted, second, third, fourth, fifth, sixth, seventh] = reply as unknown[];
    if (granted === 1 && second === permitIds[0] && typeof third === 'number' && typeof fourth === 'number' && typeof fifth === 'number' && typeof sixth === 'number' && typeof seventh === 'number' && seventh >= 1 && seventh <= permitIds.length) {
      return permitIds.slice(0, seventh).map((permitId, index) => ({ granted: true, permitId, limit: third, counted: fourth + index, windowMs: fifth, oldestSentAgoMs: sixth }));
    }
    if (granted === 0 && typeof second === 'number' && (third === 0 || third === 1) && typeof fourth === 'number' && typeof fifth === 'number') {
      return [{ granted: false, retryAfterMs: second, paused: third === 1, limit: fourth, windowMs: fifth }];
    }
  }
  throw unexpectedReply();
}

function unexpectedReply(): Error {
  return new Error(
    'Failed to acquire a rate-limit permit: Redis answered the permit script with an unexpected reply. ' +
      'Check that the server is Redis 2.6 or later and that nothing else writes the school-admin-sdk keys.',
  );
}
