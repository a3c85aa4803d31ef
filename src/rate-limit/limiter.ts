import type { RateLimitedOperationType } from './bucket-name.js';
import { ForeignShareBackoff } from './foreign-share-backoff.js';
import { PermitQueue, type Permit } from './permit-queue.js';
import type { AcquireRequest, PermitStore } from './permit-store.js';
import type { Priority, WaitReason } from './priority.js';
import type { WaitInfo } from './waiting-watch.js';

export type { Permit } from './permit-queue.js';

/** A budget the limiter paces under. */
export interface LimiterBudget {
  limit: number;
  windowMs: number;
}

/** What the limiter last heard from the store about a budget. */
interface BudgetState {
  /** The limit the server stated (`adaptLimit`). */
  learnt: number | undefined;
  /** The limit the store applied at the latest permit. */
  applied: number | undefined;
  /** Requests the store counted at the latest permit (every client sharing it), when it says. */
  counted: number | undefined;
}

/** A budget as configured: `limitIsCeiling` when the limit was set explicitly (hints may only lower it). */
export interface ConfiguredBudget extends LimiterBudget {
  limitIsCeiling: boolean;
}

/** What a {@link RateLimiter} needs. */
export interface RateLimiterOptions {
  store: PermitStore;
  /** Bucket names per operation type (hashes of the key, never the key). */
  buckets: Record<RateLimitedOperationType, string>;
  budgets: Record<RateLimitedOperationType, LimiterBudget & { limitIsCeiling?: boolean }>;
  leaseMs: number;
  /**
   * Slots interactive calls can count on per window while bulk work runs (see `PacingOptions.interactiveReserve`).
   * @default 0
   */
  interactiveReserve?: number;
  /**
   * Calls waiting longer than this for a permit are told (`onWaiting`).
   * @default Infinity (never)
   */
  waitingThresholdMs?: number;
}

/** How one call asks for a permit. */
export interface LimiterAcquireOptions {
  signal?: AbortSignal;
  /** Goes before the others of its lane (a request sent again after a 429). */
  head?: boolean;
  /** @default 'interactive' */
  priority?: Priority;
  /** Told once if the call waits longer than the threshold. */
  onWaiting?: (info: WaitInfo) => void;
}

/**
 * Paces requests per operation type under the server's sliding-window limit, with two lanes:
 * interactive calls go before queued background work (see {@link PermitQueue}; the store carries
 * the lanes to other clients and processes of the key).
 *
 * Limits: an explicitly configured limit is a ceiling the server's stated limit may lower but never
 * raise; the documented default may be raised by it. The stated limit is kept in the store (every
 * client of the key uses it) and, as a fallback once the store has forgotten an idle bucket, here.
 */
export class RateLimiter {
  readonly #options: RateLimiterOptions;
  readonly #budgets: Record<RateLimitedOperationType, ConfiguredBudget & BudgetState>;
  readonly #backoff: Record<RateLimitedOperationType, ForeignShareBackoff>;
  readonly #queues: Record<RateLimitedOperationType, PermitQueue>;
  /** Names this client's interactive queues in the store (a held slot belongs to one queue). */
  readonly #waiterId: string;

  constructor(options: RateLimiterOptions) {
    this.#options = options;
    const configured = (budget: RateLimiterOptions['budgets'][RateLimitedOperationType]) => ({
      limit: budget.limit,
      windowMs: budget.windowMs,
      limitIsCeiling: budget.limitIsCeiling === true,
      learnt: undefined,
      applied: undefined,
      counted: undefined,
    });
    this.#budgets = { mutations: configured(options.budgets.mutations), queries: configured(options.budgets.queries) };
    this.#backoff = { mutations: new ForeignShareBackoff(), queries: new ForeignShareBackoff() };
    // Web Crypto, not node:crypto: the main entry also runs in workerd, Deno and Bun.
    this.#waiterId = globalThis.crypto.randomUUID();
    this.#queues = { mutations: this.#queue('mutations'), queries: this.#queue('queries') };
  }

  /** The budget currently applied to a type (it follows the limit the server states). */
  budget(type: RateLimitedOperationType): Readonly<LimiterBudget> {
    const budget = this.#budgets[type];
    return { limit: budget.applied ?? this.#ownLimit(type), windowMs: budget.windowMs };
  }

  /** Calls of a type waiting for a permit in this client. */
  waiting(type: RateLimitedOperationType): number {
    return this.#queues[type].waiting;
  }

  /**
   * Waits for a permit. Aborting rejects at once with the signal's reason, and the call leaves the
   * queue holding nothing.
   */
  acquire(type: RateLimitedOperationType, options: LimiterAcquireOptions = {}): Promise<Permit> {
    return this.#queues[type].acquire({
      lane: options.priority ?? 'interactive',
      head: options.head === true,
      signal: options.signal,
      onWaiting: options.onWaiting,
    });
  }

  /**
   * Adopts the limit the server states (`X-RateLimit-Limit` / `extensions.limit`): kept in the
   * store for every client of the key, and here. A configured limit is never raised by it.
   */
  adaptLimit(type: RateLimitedOperationType, limit: number): void {
    if (!(Number.isSafeInteger(limit) && limit > 0)) return;
    const budget = this.#budgets[type];
    const before = this.#ownLimit(type);
    budget.learnt = limit;
    budget.applied = undefined; // until the store answers with the limit it applies now
    const keepMs = budget.windowMs + this.#options.leaseMs;
    this.#options.store.learnLimit?.(this.#options.buckets[type], limit, keepMs).catch(() => undefined);
    if (this.#ownLimit(type) > before) this.#queues[type].wake();
  }

  /**
   * Holds every request of the type (in all clients sharing the store) until `untilMs`, and, since
   * someone else is spending the key's budget, uses a smaller share of it for a while.
   */
  pause(type: RateLimitedOperationType, untilMs: number): Promise<void> {
    const { counted } = this.#budgets[type];
    this.#backoff[type].rateLimited(this.budget(type), Date.now(), counted === undefined ? undefined : { counted, pausedUntil: untilMs });
    return this.#options.store.pause(this.#options.buckets[type], untilMs);
  }

  /** The limit this client asks for: configured or default, after the limit it learnt itself. */
  #ownLimit(type: RateLimitedOperationType): number {
    const { limit, learnt, limitIsCeiling } = this.#budgets[type];
    if (learnt === undefined) return limit;
    return limitIsCeiling ? Math.min(limit, learnt) : learnt;
  }

  #queue(type: RateLimitedOperationType): PermitQueue {
    const budget = this.#budgets[type];
    return new PermitQueue({
      store: this.#options.store,
      bucket: this.#options.buckets[type],
      request: (lane) => this.#request(type, lane),
      windowMs: () => budget.windowMs,
      reasonOf: (refusal) => this.#reasonOf(type, refusal),
      onGranted: (result) => {
        budget.applied = result.limit;
        budget.counted = result.counted;
      },
      waitingThresholdMs: this.#options.waitingThresholdMs ?? Number.POSITIVE_INFINITY,
    });
  }

  #request(type: RateLimitedOperationType, lane: Priority): AcquireRequest {
    const budget = this.#budgets[type];
    const limit = this.#ownLimit(type);
    const request: AcquireRequest = { bucket: this.#options.buckets[type], limit, windowMs: budget.windowMs, leaseMs: this.#options.leaseMs, lane };
    if (budget.limitIsCeiling) request.limitIsCeiling = true;
    if (lane === 'interactive') request.waiter = this.#waiterId;
    else if (this.#options.interactiveReserve !== undefined && this.#options.interactiveReserve > 0) request.reserve = this.#options.interactiveReserve;
    // The share is taken of the limit the store applies, as the backoff measures it.
    const applied = this.budget(type);
    const share = this.#backoff[type].limit(applied, Date.now()) / applied.limit;
    if (share < 1) request.share = share;
    return request;
  }

  #reasonOf(type: RateLimitedOperationType, refusal: { paused: boolean; limit?: number }): WaitReason {
    if (refusal.paused) return 'paused';
    if (refusal.limit !== undefined && refusal.limit < this.#budgets[type].limit) return 'learnt_limit';
    return 'budget';
  }
}
