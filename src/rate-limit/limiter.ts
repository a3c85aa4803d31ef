import type Bottleneck from 'bottleneck';
import { abortableSleep } from './abortable-sleep.js';
import type { RateLimitedOperationType } from './bucket-name.js';
import { ForeignShareBackoff } from './foreign-share-backoff.js';
import type { PermitStore } from './permit-store.js';

/** A budget the limiter paces under. */
export interface LimiterBudget {
  limit: number;
  windowMs: number;
}

/** What a {@link RateLimiter} needs. */
export interface RateLimiterOptions {
  store: PermitStore;
  /** Bucket names per operation type (hashes of the key, never the key). */
  buckets: Record<RateLimitedOperationType, string>;
  budgets: Record<RateLimitedOperationType, LimiterBudget>;
  leaseMs: number;
}

/** A granted permit; release it when the response (or the failure) arrives. */
export interface Permit {
  release(): void;
}

/** Queue priorities of bottleneck: lower runs first. */
const PRIORITY_HEAD = 0;
const PRIORITY_NORMAL = 5;

let bottleneckModule: Promise<typeof Bottleneck> | undefined;
/** Loaded on first use: importing the SDK should not pay for it. */
function loadBottleneck(): Promise<typeof Bottleneck> {
  bottleneckModule ??= import('bottleneck').then((module) => module.default);
  return bottleneckModule;
}

/**
 * Paces requests per operation type under the server's sliding-window limit.
 *
 * While nobody waits, a request takes its permit from the store directly, so a full burst up to
 * the limit goes out at once. Once the budget is spent, requests wait in a bottleneck queue per
 * type (one job at a time, with priorities: a request sent again after a 429 goes first) whose
 * job waits until the store's rule has room. The store applies the rule for every client of the
 * key (and holds everyone during a pause after a 429). Bottleneck's own retry path is not used: a
 * request sent again re-enters the queue.
 */
export class RateLimiter {
  readonly #options: RateLimiterOptions;
  readonly #budgets: Record<RateLimitedOperationType, LimiterBudget>;
  readonly #queues = new Map<RateLimitedOperationType, Promise<Bottleneck>>();
  readonly #waiting: Record<RateLimitedOperationType, number> = { mutations: 0, queries: 0 };
  readonly #backoff: Record<RateLimitedOperationType, ForeignShareBackoff>;

  constructor(options: RateLimiterOptions) {
    this.#options = options;
    this.#budgets = { mutations: { ...options.budgets.mutations }, queries: { ...options.budgets.queries } };
    this.#backoff = { mutations: new ForeignShareBackoff(), queries: new ForeignShareBackoff() };
  }

  /** The budget currently applied to a type (it adapts to the server's stated limit). */
  budget(type: RateLimitedOperationType): Readonly<LimiterBudget> {
    return this.#budgets[type];
  }

  /**
   * Waits for a permit. `head: true` puts the request at the front of the queue (a request sent
   * again after a 429). Aborting rejects at once with the signal's reason.
   */
  async acquire(type: RateLimitedOperationType, options: { signal?: AbortSignal; head?: boolean } = {}): Promise<Permit> {
    options.signal?.throwIfAborted();
    // Nobody waiting: try the store at once (first come, first served is kept: a refused request
    // joins the queue behind those already waiting).
    if (this.#waiting[type] === 0) {
      const result = await this.#tryAcquire(type);
      if (result.granted) return this.#permit(type, result.permitId);
    }
    return this.#enqueue(type, options);
  }

  /** Adopts the limit the server states (`X-RateLimit-Limit` / `extensions.limit`). */
  adaptLimit(type: RateLimitedOperationType, limit: number): void {
    if (Number.isInteger(limit) && limit > 0) this.#budgets[type].limit = limit;
  }

  /**
   * Holds every request of the type (in all clients sharing the store) until `untilMs`, and, since
   * someone else is spending the key's budget, uses a smaller share of it for a while.
   */
  pause(type: RateLimitedOperationType, untilMs: number): Promise<void> {
    this.#backoff[type].rateLimited(this.#budgets[type], Date.now());
    return this.#options.store.pause(this.#options.buckets[type], untilMs);
  }

  #enqueue(type: RateLimitedOperationType, options: { signal?: AbortSignal; head?: boolean }): Promise<Permit> {
    const { signal } = options;
    this.#waiting[type] += 1;
    return new Promise<Permit>((resolve, reject) => {
      let settled = false;
      const finish = (): void => {
        if (settled) return;
        settled = true;
        this.#waiting[type] -= 1;
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = (): void => {
        finish();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const job = async (): Promise<void> => {
        if (settled) return; // aborted while queued: take nothing
        try {
          const permitId = await this.#waitForPermit(type, signal);
          if (settled) {
            this.#permit(type, permitId).release();
          } else {
            finish();
            resolve(this.#permit(type, permitId));
          }
        } catch (error) {
          if (!settled) {
            finish();
            reject(error);
          }
        }
      };
      this.#queue(type)
        .then((queue) => queue.schedule({ priority: options.head === true ? PRIORITY_HEAD : PRIORITY_NORMAL }, job))
        .catch((error: unknown) => {
          if (!settled) {
            finish();
            reject(error);
          }
        });
    });
  }

  #queue(type: RateLimitedOperationType): Promise<Bottleneck> {
    let queue = this.#queues.get(type);
    if (queue === undefined) {
      queue = loadBottleneck().then((Limiter) => new Limiter({ maxConcurrent: 1 }));
      this.#queues.set(type, queue);
    }
    return queue;
  }

  #tryAcquire(type: RateLimitedOperationType) {
    const budget = this.#budgets[type];
    const limit = this.#backoff[type].limit(budget, Date.now());
    return this.#options.store.tryAcquire({ bucket: this.#options.buckets[type], limit, windowMs: budget.windowMs, leaseMs: this.#options.leaseMs });
  }

  async #waitForPermit(type: RateLimitedOperationType, signal?: AbortSignal): Promise<string> {
    for (;;) {
      signal?.throwIfAborted();
      const result = await this.#tryAcquire(type);
      if (result.granted) return result.permitId;
      // An answered request frees its slot exactly windowMs after its response, so nothing can free
      // up later than that from now: never sleep longer (the store may answer with a lease end).
      await abortableSleep(Math.min(Math.max(result.retryAfterMs, 1), this.#budgets[type].windowMs), signal);
    }
  }

  #permit(type: RateLimitedOperationType, permitId: string): Permit {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        // Fire and forget: the answer's time is taken now; a store failure must not fail the call.
        this.#options.store.release(this.#options.buckets[type], permitId, this.#budgets[type].windowMs).catch(() => undefined);
      },
    };
  }
}
