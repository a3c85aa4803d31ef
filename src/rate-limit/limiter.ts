import { randomHex } from '../client/pipeline/call-id.js';
import type { RateLimitedOperationType } from './bucket-name.js';
import { ForeignShareBackoff } from './foreign-share-backoff.js';
import { PermitQueue, type Permit, type PermitQueueOwner } from './permit-queue.js';
import type { AcquireRequest, AcquireResult, EarlierSend, PermitStore } from './permit-store.js';
import type { Priority, WaitReason } from './priority.js';
import type { WaitInfo } from './waiting-watch.js';

export type { Permit } from './permit-queue.js';

/** A budget the limiter paces under. */
export interface LimiterBudget {
  limit: number;
  windowMs: number;
}

/** What the limiter learnt from the server and last heard from the store about a budget. */
interface BudgetState {
  /** The limit the server stated. */
  learnt: number | undefined;
  /** The window the server's answers revealed. */
  learntWindow: number | undefined;
  /** The limit the store applied at the latest permit. */
  applied: number | undefined;
  /** The window the store applied at the latest permit. */
  appliedWindow: number | undefined;
  /** Requests the store counted at the latest permit (every client sharing it), when it says. */
  counted: number | undefined;
  /** Epoch ms when the oldest request the store counted at the latest permit was sent, when it says. */
  oldestSentAt: number | undefined;
  /** Epoch ms until which the 429s of the burst that revealed a shorter window may narrow it. */
  windowLearntUntil: number;
  /** A longer window one burst of 429s revealed, until another burst confirms it, and when that burst's pause ends. */
  longerWindow: { windowMs: number; burstUntil: number } | undefined;
}

/**
 * A budget as configured: `limitIsCeiling` when the limit was set explicitly (the server's figures
 * may only lower it), `windowIsFloor` when the window was (they may only lengthen it).
 */
export interface ConfiguredBudget extends LimiterBudget {
  limitIsCeiling: boolean;
  windowIsFloor: boolean;
}

/** Where the budget a call waits under comes from. */
export type BudgetSource =
  /** The client's `limits` option. */
  | 'configured'
  /** The spec's documented default (200 mutations, 600 queries per minute). */
  | 'default'
  /** The server's own figures: a limit it stated, or a window its 429s revealed. */
  | 'server';

/** The budget a call is paced under now, and where it comes from. */
export interface BudgetInForce {
  /** Most requests in any sliding window. */
  limit: number;
  /** The sliding window, in milliseconds. */
  windowMs: number;
  /** The client's `limits` option, the documented default, or the server's own figures. */
  source: BudgetSource;
}

/** What a 429 said, as the limiter uses it. */
export interface RateLimitAnswer {
  /** The limit the server stated, if any. */
  limit: number | undefined;
  /** The earliest moment (epoch ms) any of its hints says a request may pass again, if any. */
  earliestRetryAt: number | undefined;
  /** Epoch ms until which every client of the key waits (the latest hint, at least the fallback backoff). */
  pauseUntil: number;
}

/** What a {@link RateLimiter} needs. */
export interface RateLimiterOptions {
  store: PermitStore;
  /** Bucket names per operation type (hashes of the key, never the key). */
  buckets: Record<RateLimitedOperationType, string>;
  budgets: Record<RateLimitedOperationType, LimiterBudget & { limitIsCeiling?: boolean; windowIsFloor?: boolean }>;
  leaseMs: number;
  /**
   * Slots kept free for interactive calls while bulk work runs (see `PacingOptions.interactiveReserve`);
   * 0 is batch mode (`AcquireRequest.batch`).
   * @default `reserveShare` of the limit in force, at least 1
   */
  interactiveReserve?: number | undefined;
  /**
   * The reserve as a share of the limit in force, when `interactiveReserve` is not given.
   * @default 0
   */
  reserveShare?: number | undefined;
  /**
   * The share of the limit a bulk job's first window hands out across the window rather than at
   * once (at least the reserve); see `AcquireRequest.ramp`.
   * @default 0 (no ramp)
   */
  rampShare?: number | undefined;
  /**
   * Calls waiting longer than this for a permit are told (`onWaiting`).
   * @default Infinity (never)
   */
  waitingThresholdMs?: number | undefined;
  /** True for a type whose budget is the documented default (for {@link RateLimiter.budgetInForce}). */
  defaultBudgets?: Partial<Record<RateLimitedOperationType, boolean>> | undefined;
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
  /**
   * How long the call may still wait on a 429's pause of the key: a longer pause fails it at once
   * (PausePastAllowanceSignal, which the pipeline turns into a RateLimitError), nothing sent.
   * @default Infinity
   */
  pauseAllowanceMs?: number;
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
export class RateLimiter implements PermitQueueOwner {
  /** The options but the budgets (copied into `#budgets`: a client keeps its limiter for its lifetime). */
  readonly #options: Omit<RateLimiterOptions, 'budgets'>;
  readonly #budgets: Record<RateLimitedOperationType, ConfiguredBudget & BudgetState>;
  // Each type's backoff and queue, and the waiter id, are made on first use: a process serving
  // many schools holds a client per key, most of them idle, many using one type only.
  #backoff: Partial<Record<RateLimitedOperationType, ForeignShareBackoff>> | undefined;
  #mutationsQueue: PermitQueue | undefined;
  #queriesQueue: PermitQueue | undefined;
  /** Names this client's interactive queues in the store (a held slot belongs to one queue). */
  #waiterId: string | undefined;

  constructor(options: RateLimiterOptions) {
    // One literal (a rest object would keep part of its fields in a separate store).
    const { store, buckets, leaseMs, interactiveReserve, reserveShare, rampShare, waitingThresholdMs, defaultBudgets } = options;
    this.#options = { store, buckets, leaseMs, interactiveReserve, reserveShare, rampShare, waitingThresholdMs, defaultBudgets };
    this.#budgets = { mutations: configuredBudget(options.budgets.mutations), queries: configuredBudget(options.budgets.queries) };
  }

  /** The budget currently applied to a type (it follows the limit and the window the server reveals). */
  budget(type: RateLimitedOperationType): Readonly<LimiterBudget> {
    const budget = this.#budgets[type];
    return { limit: budget.applied ?? this.#ownLimit(type), windowMs: budget.appliedWindow ?? this.#ownWindow(type) };
  }

  /** {@link RateLimiter.budget}, and whether it is configured, the documented default or the server's. */
  budgetInForce(type: RateLimitedOperationType): BudgetInForce {
    const budget = this.#budgets[type];
    const applied = this.budget(type);
    const fromServer = (budget.learnt !== undefined || budget.applied !== undefined) && applied.limit !== budget.limit;
    const windowFromServer = applied.windowMs !== budget.windowMs;
    const source: BudgetSource = fromServer || windowFromServer ? 'server' : this.#options.defaultBudgets?.[type] === true ? 'default' : 'configured';
    return { ...applied, source };
  }

  /** How long a permit may stay unreleased before it is treated as answered (`limits.leaseMs`). */
  get leaseMs(): number {
    return this.#options.leaseMs;
  }

  /** Calls of a type waiting for a permit in this client. */
  waiting(type: RateLimitedOperationType): number {
    return this.#queueIfMade(type)?.waiting ?? 0;
  }

  /**
   * Waits for a permit. Aborting rejects at once with the signal's reason, and the call leaves the
   * queue holding nothing.
   */
  acquire(type: RateLimitedOperationType, options: LimiterAcquireOptions = {}): Promise<Permit> {
    return this.#queue(type).acquire({
      lane: options.priority ?? 'interactive',
      head: options.head === true,
      signal: options.signal,
      onWaiting: options.onWaiting,
      pauseAllowanceMs: options.pauseAllowanceMs ?? Number.POSITIVE_INFINITY,
    });
  }

  /**
   * Takes in a 429 and holds every request of the type (in all clients sharing the store) until
   * `answer.pauseUntil`. What it teaches:
   *
   * - The stated limit is adopted (kept in the store for every client of the key); a configured
   *   limit is never raised by it.
   * - The server's window: the 429's earliest hint tells when the oldest request it counts frees,
   *   and the store says when the oldest request it counts was sent. A clearly longer window than
   *   the one applied (by a quarter, and at least a second: the hints are whole seconds, and a
   *   request arrives after it was sent) is adopted when two bursts of 429s reveal it, each read
   *   against a request sent within the applied window before the 429 came (the server surely
   *   still counts it). A shorter one at once, but only when this client's own traffic explains
   *   the 429 and the server states a limit below the applied one (a self-hosted server whose
   *   budget is not the documented default); the 429s of that same burst then narrow it (each hint
   *   is rounded up to a whole second). A configured window is never shortened.
   * - When the requests the store counted do not explain the 429 (no more than the server
   *   allows), someone else is spending the key's budget: the client uses a smaller share of it for
   *   a while (see {@link ForeignShareBackoff}). A burst of the client's own 429s is not taken for that.
   */
  rateLimited(type: RateLimitedOperationType, answer: RateLimitAnswer, nowMs: number = Date.now()): Promise<void> {
    const budget = this.#budgets[type];
    const before = this.budget(type);
    const { counted } = budget;
    const stated = answer.limit !== undefined && Number.isSafeInteger(answer.limit) && answer.limit > 0 ? answer.limit : undefined;
    const own = counted !== undefined && counted > (stated ?? before.limit);
    if (stated !== undefined) this.adaptLimit(type, stated);
    if (answer.earliestRetryAt !== undefined && budget.oldestSentAt !== undefined) {
      const revealed = Math.ceil(answer.earliestRetryAt - budget.oldestSentAt);
      if (nowMs < budget.windowLearntUntil) {
        if (own && revealed < before.windowMs) this.#adaptWindow(type, revealed);
      } else if (revealed > clearlyLonger(before.windowMs) && nowMs - budget.oldestSentAt <= before.windowMs) {
        // The server surely still counts the store's oldest request only when it was sent within a
        // window (the store keeps a request until a window after its answer; the server may have
        // dropped it, and the oldest it counts is then a later one, maybe another client's).
        this.#longerWindowRevealed(type, revealed, answer.pauseUntil, nowMs);
      } else {
        if (own && stated !== undefined && stated < before.limit && revealed < before.windowMs) {
          this.#adaptWindow(type, revealed);
          budget.windowLearntUntil = answer.pauseUntil;
        }
        // A later burst that did not reveal the longer window: the earlier hint was not the window.
        if (budget.longerWindow !== undefined && nowMs >= budget.longerWindow.burstUntil) budget.longerWindow = undefined;
      }
    }
    if (!own) this.#backoffOf(type).rateLimited(this.budget(type), nowMs, counted === undefined ? undefined : { counted, pausedUntil: answer.pauseUntil });
    return this.pause(type, answer.pauseUntil);
  }

  /**
   * A longer window is adopted when a second burst of 429s (one after the first one's pause) reveals
   * one too, the shorter of the two. One hint can date another client's request: a server that
   * counts refused arrivals too says when enough requests free, not when the oldest does, and
   * another client on the key fills its count. Read from one hint, bench:pacing's scenario (d) (a
   * client sending at each window's start) learnt 5.0-5.9 s for a 3 s window in a third of its
   * runs and went at half pace to the end. A server whose window really is longer goes on refusing
   * the pace of the shorter one, so the second burst comes within a window.
   */
  #longerWindowRevealed(type: RateLimitedOperationType, revealed: number, burstUntil: number, nowMs: number): void {
    const budget = this.#budgets[type];
    const seen = budget.longerWindow;
    if (seen === undefined) {
      budget.longerWindow = { windowMs: revealed, burstUntil };
    } else if (nowMs >= seen.burstUntil) {
      budget.longerWindow = undefined;
      this.#adaptWindow(type, Math.min(seen.windowMs, revealed));
    }
  }

  /** Adopts the limit the server states: kept in the store for every client of the key, and here. A configured limit is never raised by it. */
  adaptLimit(type: RateLimitedOperationType, limit: number): void {
    const budget = this.#budgets[type];
    const before = this.#ownLimit(type);
    budget.learnt = limit;
    budget.applied = undefined; // until the store answers with the limit it applies now
    this.#options.store.learnLimit?.(this.#options.buckets[type], limit, this.#keepMs(type)).catch(() => undefined);
    if (this.#ownLimit(type) > before) this.#queueIfMade(type)?.wake();
  }

  /**
   * A resumed job's earlier spending, from its journal: the budget the server had revealed to the
   * earlier run is adopted as if learnt now (limit and window), and its requests are counted by the
   * store when it can (`PermitStore.seed`: the memory store; the Redis store counted them already).
   */
  seedEarlier(type: RateLimitedOperationType, sends: readonly EarlierSend[], learnt?: LimiterBudget): Promise<void> {
    if (learnt !== undefined) {
      this.adaptLimit(type, learnt.limit);
      this.#adaptWindow(type, learnt.windowMs);
    }
    return this.#options.store.seed?.(this.#options.buckets[type], sends, this.budget(type).windowMs) ?? Promise.resolve();
  }

  /**
   * Adopts the budget the server states on its answers (`RateLimit-Policy`, or `X-RateLimit-Limit`
   * with a window): its limit as {@link RateLimiter.adaptLimit} does (never above a configured
   * one), its window as one its 429s reveal (never below a configured one). Only a change is passed
   * to the store (which keeps what it learnt while the bucket is in use); a window a 429's hints
   * changed is set right by the next answer that states it.
   */
  stated(type: RateLimitedOperationType, stated: LimiterBudget): void {
    const budget = this.#budgets[type];
    if (budget.learnt !== stated.limit) this.adaptLimit(type, stated.limit);
    if (budget.learntWindow !== stated.windowMs) this.#adaptWindow(type, stated.windowMs);
  }

  /** Holds every request of the type, in all clients sharing the store, until `untilMs`. */
  pause(type: RateLimitedOperationType, untilMs: number): Promise<void> {
    return this.#options.store.pause(this.#options.buckets[type], untilMs);
  }

  /** Adopts the window the server's answers revealed, as {@link RateLimiter.adaptLimit} does the limit. A configured window is never shortened by it. */
  #adaptWindow(type: RateLimitedOperationType, windowMs: number): void {
    const budget = this.#budgets[type];
    if (!(Number.isSafeInteger(windowMs) && windowMs > 0)) return;
    const before = this.#ownWindow(type);
    budget.learntWindow = windowMs;
    budget.appliedWindow = undefined;
    this.#options.store.learnWindow?.(this.#options.buckets[type], windowMs, this.#keepMs(type)).catch(() => undefined);
    if (this.#ownWindow(type) < before) this.#queueIfMade(type)?.wake();
  }

  #keepMs(type: RateLimitedOperationType): number {
    return this.#ownWindow(type) + this.#options.leaseMs;
  }

  /** The window this client asks for: configured or default, after the window it learnt itself. */
  #ownWindow(type: RateLimitedOperationType): number {
    const { windowMs, learntWindow, windowIsFloor } = this.#budgets[type];
    if (learntWindow === undefined) return windowMs;
    return windowIsFloor ? Math.max(windowMs, learntWindow) : learntWindow;
  }

  /** The limit this client asks for: configured or default, after the limit it learnt itself. */
  #ownLimit(type: RateLimitedOperationType): number {
    const { limit, learnt, limitIsCeiling } = this.#budgets[type];
    if (learnt === undefined) return limit;
    return limitIsCeiling ? Math.min(limit, learnt) : learnt;
  }

  /** The queue of `type`, made on its first call. */
  #queue(type: RateLimitedOperationType): PermitQueue {
    const made = this.#queueIfMade(type);
    if (made !== undefined) return made;
    const queue = new PermitQueue({ owner: this, type, store: this.#options.store, bucket: this.#options.buckets[type], waitingThresholdMs: this.#options.waitingThresholdMs ?? Number.POSITIVE_INFINITY });
    if (type === 'mutations') this.#mutationsQueue = queue;
    else this.#queriesQueue = queue;
    return queue;
  }

  #queueIfMade(type: RateLimitedOperationType): PermitQueue | undefined {
    return type === 'mutations' ? this.#mutationsQueue : this.#queriesQueue;
  }

  #backoffOf(type: RateLimitedOperationType): ForeignShareBackoff {
    const backoff = (this.#backoff ??= {});
    return (backoff[type] ??= new ForeignShareBackoff());
  }

  /** {@inheritDoc PermitQueueOwner.granted} */
  granted(type: RateLimitedOperationType, result: Extract<AcquireResult, { granted: true }>): void {
    const budget = this.#budgets[type];
    budget.applied = result.limit;
    budget.appliedWindow = result.windowMs;
    budget.counted = result.counted;
    budget.oldestSentAt = result.oldestSentAgoMs === undefined ? undefined : Date.now() - result.oldestSentAgoMs;
  }

  /** {@inheritDoc PermitQueueOwner.permitRequest} */
  permitRequest(type: RateLimitedOperationType, lane: Priority, demand: number, burst: number | undefined): AcquireRequest {
    const budget = this.#budgets[type];
    const limit = this.#ownLimit(type);
    const request: AcquireRequest = { bucket: this.#options.buckets[type], limit, windowMs: this.#ownWindow(type), leaseMs: this.#options.leaseMs, lane };
    if (budget.limitIsCeiling) request.limitIsCeiling = true;
    if (budget.windowIsFloor) request.windowIsFloor = true;
    if (lane === 'interactive') {
      // 128 random bits as one flat string (a UUID from Web Crypto is a tree of string pieces in
      // V8, about 0.3 KB a client for as long as it lives).
      request.waiter = this.#waiterId ??= `waiter-${randomHex(16)}`;
      if (demand > 1) request.demand = demand;
      if (burst !== undefined) request.burst = burst;
    } else if (this.#options.interactiveReserve === 0) {
      // Batch mode: a process that runs bulk work only keeps nothing free for interactive calls.
      request.batch = true;
    } else {
      const reserve = this.#options.interactiveReserve ?? shareOfBudget(this.#options.reserveShare, limit);
      if (reserve > 0) request.reserve = reserve;
      const ramp = Math.max(reserve, shareOfBudget(this.#options.rampShare, limit));
      if (ramp > 0) request.ramp = ramp;
    }
    // The share is taken of the limit the store applies, as the backoff measures it.
    const backoff = this.#backoff?.[type];
    if (backoff !== undefined) {
      const applied = this.budget(type);
      const share = backoff.limit(applied, Date.now()) / applied.limit;
      if (share < 1) request.share = share;
    }
    return request;
  }

  /** {@inheritDoc PermitQueueOwner.waitReason} */
  waitReason(type: RateLimitedOperationType, refusal: { paused: boolean; limit?: number; windowMs?: number }): WaitReason {
    if (refusal.paused) return 'paused';
    const configured = this.#budgets[type];
    const limit = refusal.limit ?? this.#ownLimit(type);
    const windowMs = refusal.windowMs ?? this.#ownWindow(type);
    // The server's own figures hold the call when they allow fewer requests per window than the client's.
    if (limit / windowMs < configured.limit / configured.windowMs) return 'learnt_limit';
    return 'budget';
  }
}

/** A type's budget as configured, with nothing learnt yet. */
function configuredBudget(budget: RateLimiterOptions['budgets'][RateLimitedOperationType]): ConfiguredBudget & BudgetState {
  return {
    limit: budget.limit,
    windowMs: budget.windowMs,
    limitIsCeiling: budget.limitIsCeiling === true,
    windowIsFloor: budget.windowIsFloor === true,
    learnt: undefined,
    learntWindow: undefined,
    applied: undefined,
    appliedWindow: undefined,
    counted: undefined,
    oldestSentAt: undefined,
    windowLearntUntil: 0,
    longerWindow: undefined,
  };
}

/** The shortest revealed window taken as a sign that the server's window is longer than `windowMs`. */
function clearlyLonger(windowMs: number): number {
  return windowMs + Math.max(1_000, windowMs / 4);
}

/**
 * Budgets below this many requests per window get no default reserve and no ramp: each slot kept
 * back would cost bulk work more than a tenth of its pace (interactive calls still go before
 * queued bulk work).
 */
export const SMALL_BUDGET = 10;

/** `share` of `limit` in whole slots, at least one; none for a small budget or without a share. */
function shareOfBudget(share: number | undefined, limit: number): number {
  if (share === undefined || limit < SMALL_BUDGET) return 0;
  return Math.max(1, Math.ceil(share * limit));
}
