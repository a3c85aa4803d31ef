import type { ClientEventListener, ClientEventMap, WaitingEvent } from '../../client/events/client-events.js';
import type { BudgetInForce } from '../../rate-limit/limiter.js';
import type { WaitReason } from '../../rate-limit/priority.js';
import { DEFAULTS, type RateLimitBudget } from '../../client/options/options.js';
import { formatDuration } from './duration-format.js';

/** Waits at most this long are not shown: a normal answer, a short backoff. */
export const SHOW_WAITS_OVER_MS = 2_000;

/** A wait to show: why, and how long it still takes. */
export interface WaitNotice {
  /** Why, in a sentence fragment: "the server asked to wait (429, mutation rate limit)". */
  reason: string;
  /** The same in at most about 20 characters, for a narrow line: "429 rate limit". */
  short: string;
  /** Time left. */
  leftMs: number;
  /** True when `leftMs` is an upper bound (a retry's random backoff, a request's timeout), not an estimate. */
  atMost: boolean;
}

/** A wait of known length. */
export interface ExpectedWait {
  reason: string;
  short: string;
  durationMs: number;
  /** How long the wait has lasted already when it is announced. @default 0 */
  waitedMs?: number;
  atMost?: boolean;
  /**
   * Shown only while nothing moves (no request sent nor answered for over 2 s): a wait that holds
   * back some requests while others still go (the client's pacing) is news only when it stalls the job.
   */
  onlyWhenIdle?: boolean;
}

interface Running extends ExpectedWait {
  startedAt: number;
  endsAt: number;
}

/**
 * What the command is waiting for, gathered from the client's events (see {@link watchClientWaits})
 * and from what the command knows itself (its own rate-limit budget). Displays ask
 * {@link WaitWatch.current} on every redraw: a wait shows its reason and the time left, counting
 * down, and disappears when it is over.
 */
export class WaitWatch {
  readonly #waits = new Map<string, Running>();
  readonly #now: () => number;
  readonly #timeoutMs: number;
  #lastRequestAt: number | undefined;
  #lastAnswerAt: number | undefined;
  #serverBudget: BudgetInForce | undefined;

  readonly #startedAt: number;

  constructor(options: { now?: () => number; timeoutMs?: number } = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.#startedAt = this.#now();
  }

  /** A wait of known length begins (replacing an earlier one from the same `source`). */
  expect(source: string, wait: ExpectedWait): void {
    const now = this.#now();
    this.#waits.set(source, { ...wait, startedAt: now - Math.max(0, wait.waitedMs ?? 0), endsAt: now + Math.max(0, wait.durationMs) });
  }

  /** The wait from `source` is over. */
  end(source: string): void {
    this.#waits.delete(source);
  }

  /** The client paces mutations under the server's own figures (a `waiting` event said so). */
  serverBudgetSeen(budget: BudgetInForce): void {
    this.#serverBudget = budget;
  }

  /** The mutation budget the server revealed during the run, if the client paced under it. */
  get serverBudget(): BudgetInForce | undefined {
    return this.#serverBudget;
  }

  /** A request went out. */
  requestSent(): void {
    this.#lastRequestAt = this.#now();
  }

  /** An attempt ended (an answer, or a failure about to be retried). */
  answered(): void {
    this.#lastAnswerAt = this.#now();
  }

  /**
   * The wait to show now, if any: of the known waits longer than {@link SHOW_WAITS_OVER_MS}
   * (expected, or lasted so far), the one that ends first; else a request that has been unanswered
   * for longer than that (at most until it times out).
   */
  current(): WaitNotice | undefined {
    const now = this.#now();
    const lastActivity = Math.max(this.#lastRequestAt ?? this.#startedAt, this.#lastAnswerAt ?? this.#startedAt);
    const idle = now - lastActivity > SHOW_WAITS_OVER_MS;
    // Waits in a row (a 429's pause, then the pacing after it) show one after the other: the next to end first.
    let first: Running | undefined;
    for (const [source, wait] of this.#waits) {
      if (wait.endsAt <= now) {
        this.#waits.delete(source);
        continue;
      }
      const long = wait.endsAt - wait.startedAt > SHOW_WAITS_OVER_MS || now - wait.startedAt > SHOW_WAITS_OVER_MS;
      if (wait.onlyWhenIdle === true && !idle) continue;
      if (long && (first === undefined || wait.endsAt < first.endsAt)) first = wait;
    }
    if (first !== undefined) return { reason: first.reason, short: first.short, leftMs: first.endsAt - now, atMost: first.atMost === true };
    const sent = this.#lastRequestAt;
    if (sent === undefined || (this.#lastAnswerAt ?? -Infinity) >= sent || now - sent <= SHOW_WAITS_OVER_MS) return undefined;
    return {
      reason: `no answer from the server yet (a request gives up after ${formatDuration(this.#timeoutMs)})`,
      short: 'slow server',
      leftMs: Math.max(0, sent + this.#timeoutMs - now),
      atMost: true,
    };
  }
}

/** "28 s left" or "at most 4 s left". */
function leftText(notice: WaitNotice): string {
  return `${notice.atMost ? 'at most ' : ''}${formatDuration(Math.ceil(notice.leftMs / 1000) * 1000)} left`;
}

/**
 * A wait as text: `long` for a line of its own ("waiting, 28 s left: the server asked to wait (429, ..."),
 * `medium` for one that must fit a narrow terminal ("waiting, 28 s left: 429 rate limit"), `short`
 * inside a narrow progress line ("wait 28 s: 429 rate limit").
 */
export function waitText(notice: WaitNotice, form: 'long' | 'medium' | 'short'): string {
  if (form === 'long') return `waiting, ${leftText(notice)}: ${notice.reason}`;
  if (form === 'medium') return `waiting, ${leftText(notice)}: ${notice.short}`;
  return `wait ${notice.atMost ? '<=' : ''}${formatDuration(Math.ceil(notice.leftMs / 1000) * 1000)}: ${notice.short}`;
}

/** The part of a client a watch listens to. */
export interface WaitEventSource {
  on<K extends keyof ClientEventMap>(name: K, listener: ClientEventListener<K>): () => void;
}

/** The longest a retry may wait before attempt `attempt` (p-retry: base x 2^(retry-1), capped, times a random factor below 2). */
function retryDelayBoundMs(attempt: number): number {
  return 2 * Math.min(DEFAULTS.maxRetryDelayMs, DEFAULTS.retryBaseDelayMs * 2 ** Math.max(0, attempt - 2));
}

/** The sliding windows the client paces each operation type under. */
export interface PacingWindows {
  mutations: number;
  queries: number;
}

/** The windows of a client built with `--rate-limit` (mutations only) or the defaults. */
export function pacingWindows(rateLimit: RateLimitBudget | undefined): PacingWindows {
  return { mutations: (rateLimit ?? DEFAULTS.mutations).windowMs, queries: DEFAULTS.queries.windowMs };
}

const SINGULAR = { mutations: 'mutation', queries: 'query' } as const;

/** "200 per 60 s", "30 per 5.1 s". */
function budgetText(budget: RateLimitBudget): string {
  const seconds = budget.windowMs / 1000;
  return `${budget.limit} per ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** How each reason the client gives for holding a call back reads (`waiting` event), with the figures it paces under. */
const WAITING_TEXT: Record<WaitReason, (kind: string, event: WaitingEvent & { budget: BudgetInForce }) => { reason: string; short: string }> = {
  budget: (kind, { budget }) =>
    budget.source === 'server'
      ? { reason: `pacing at the server's own ${kind} rate limit, ${budgetText(budget)} (revealed by its 429s); the next request goes when the window frees`, short: `server ${budget.limit}/${Math.max(1, Math.round(budget.windowMs / 1000))}s` }
      : { reason: `the ${kind} rate limit (${budgetText(budget)}${budget.source === 'default' ? ', the documented default' : ''}) is used up for now, by this or another client of the key; the next request goes when the window frees`, short: 'rate limit' },
  paused: (kind) => ({ reason: `every client of the key waits after a 429 (${kind} rate limit), until the time the server named`, short: '429 pause' }),
  learnt_limit: (kind, { budget }) => ({
    reason: `the server's own ${kind} rate limit, ${budgetText(budget)} (revealed by its 429s), is lower than the one assumed; requests go at its pace`,
    short: `server ${budget.limit}/${Math.max(1, Math.round(budget.windowMs / 1000))}s`,
  }),
  unreachable: (_kind, event) => {
    const code = event.networkCode === undefined ? '' : ` (${event.networkCode})`;
    return { reason: `the server cannot be reached${code}; the request is tried again (check ADMIN_API_URL)`, short: `unreachable${code}` };
  },
};

/**
 * Feeds `watch` from the client's events: a 429's pause (`rateLimited` carries its length), the
 * client holding a call back for its rate-limit budget (`waiting`: its reason and the time it
 * expects), a retry's backoff, and requests and answers (a request unanswered for long). This is
 * the one place client events become waits. Returns a function that stops listening.
 */
export function watchClientWaits(client: WaitEventSource, watch: WaitWatch, windows: PacingWindows = { mutations: DEFAULTS.mutations.windowMs, queries: DEFAULTS.queries.windowMs }): () => void {
  const stops = [
    client.on('rateLimited', (event) => {
      const kind = SINGULAR[event.operationType];
      watch.expect(`rate-limited:${event.operationType}`, {
        reason: `the server asked to wait (429, ${kind} rate limit)`,
        short: '429 rate limit',
        durationMs: event.waitMs,
      });
    }),
    client.on('waiting', (event) => {
      const unreachable = event.reason === 'unreachable';
      // The same wait as the retry's backoff, with its cause: shown instead of it.
      if (unreachable) watch.end('retry');
      // Pacing is on whenever the client holds a call back for its budget; a retry's wait has one too unless `limits: false`.
      const budget = event.budget ?? { ...DEFAULTS[event.operationType], source: 'default' as const };
      if (event.operationType === 'mutations' && budget.source === 'server') watch.serverBudgetSeen(budget);
      // One source per call: with several calls held back, the display shows the one that goes first.
      watch.expect(`waiting:${event.callId}`, {
        ...WAITING_TEXT[event.reason](SINGULAR[event.operationType], { ...event, budget }),
        // Without the client's estimate, about a window (the time a full budget takes to free).
        durationMs: event.expectedMs ?? windows[event.operationType],
        waitedMs: event.waitedMs,
        // An unreachable server stalls the job even while failed attempts come and go; its wait is a bound.
        onlyWhenIdle: !unreachable,
        atMost: unreachable,
      });
    }),
    client.on('retry', (event) => {
      watch.answered();
      watch.expect('retry', {
        reason: `retrying after a ${event.error} (attempt ${event.attempt}, ${event.retriesLeft} more allowed)`,
        short: `retry (${event.error})`,
        durationMs: retryDelayBoundMs(event.attempt),
        atMost: true,
      });
    }),
    client.on('request', (event) => {
      watch.end('retry');
      watch.end(`waiting:${event.callId}`);
      watch.requestSent();
    }),
    client.on('response', () => watch.answered()),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
