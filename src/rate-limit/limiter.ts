import type Bottleneck from 'bottleneck';
import { abortableSleep } from './abortable-sleep.js';
import type { RateLimitedOperationType } from './bucket-name.js';
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
 * Paces requests per operation type under the server's sliding-window limit. Each type has a
 * bottleneck queue (one job at a time, with priorities) whose jobs only obtain permits from the
 * store; the requests themselves run outside the queue, so a full burst up to the limit goes out
 * at once and later ones wait exactly until the store's rule has room.
 */
export class RateLimiter {
  readonly #options: RateLimiterOptions;
  readonly #budgets: Record<RateLimitedOperationType, LimiterBudget>;
  readonly #queues = new Map<RateLimitedOperationType, Promise<Bottleneck>>();

  constructor(options: RateLimiterOptions) {
    this.#options = options;
    this.#budgets = { mutations: { ...options.budgets.mutations }, queries: { ...options.budgets.queries } };
  }

  /** The budget currently applied to a type (it adapts to the server's stated limit). */
  budget(type: RateLimitedOperationType): Readonly<LimiterBudget> {
    return this.#budgets[type];
  }

  /**
   * Waits for a permit. `head: true` puts the request at the front of the queue (a request sent
   * again after a 429). Aborting rejects at once with the signal's reason.
   */
  acquire(type: RateLimitedOperationType, options: { signal?: AbortSignal; head?: boolean } = {}): Promise<Permit> {
    const { signal } = options;
    return new Promise<Permit>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      let settled = false;
      const onAbort = (): void => {
        settled = true;
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const job = async (): Promise<void> => {
        if (settled) return; // aborted while queued: take nothing
        try {
          const permitId = await this.#waitForPermit(type, signal);
          const permit = this.#permit(type, permitId);
          if (settled) permit.release();
          else resolve(permit);
        } catch (error) {
          if (!settled) reject(error);
        } finally {
          settled = true;
          signal?.removeEventListener('abort', onAbort);
        }
      };
      this.#queue(type)
        .then((queue) => queue.schedule({ priority: options.head === true ? PRIORITY_HEAD : PRIORITY_NORMAL }, job))
        .catch((error: unknown) => {
          if (!settled) reject(error);
        });
    });
  }

  /** Adopts the limit the server states (`X-RateLimit-Limit` / `extensions.limit`). */
  adaptLimit(type: RateLimitedOperationType, limit: number): void {
    if (Number.isInteger(limit) && limit > 0) this.#budgets[type].limit = limit;
  }

  /** Holds every request of the type (in all clients sharing the store) until `untilMs`. */
  pause(type: RateLimitedOperationType, untilMs: number): Promise<void> {
    return this.#options.store.pause(this.#options.buckets[type], untilMs);
  }

  #queue(type: RateLimitedOperationType): Promise<Bottleneck> {
    let queue = this.#queues.get(type);
    if (queue === undefined) {
      queue = loadBottleneck().then((Limiter) => new Limiter({ maxConcurrent: 1 }));
      this.#queues.set(type, queue);
    }
    return queue;
  }

  async #waitForPermit(type: RateLimitedOperationType, signal?: AbortSignal): Promise<string> {
    const bucket = this.#options.buckets[type];
    for (;;) {
      const budget = this.#budgets[type];
      const result = await this.#options.store.tryAcquire({ bucket, ...budget, leaseMs: this.#options.leaseMs });
      if (result.granted) return result.permitId;
      // An answered request frees its slot exactly windowMs after its response, so nothing can free
      // up later than that from now: never sleep longer (the store may answer with a lease end).
      await abortableSleep(Math.min(Math.max(result.retryAfterMs, 1), budget.windowMs), signal);
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
