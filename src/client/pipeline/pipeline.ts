import { NetworkError } from '../../errors/network-error.js';
import { RateLimitError } from '../../errors/rate-limit-error.js';
import { Redactor } from '../../errors/redactor.js';
import { abortableSleep } from '../../rate-limit/abortable-sleep.js';
import type { RateLimitedOperationType } from '../../rate-limit/bucket-name.js';
import type { Permit, RateLimiter } from '../../rate-limit/limiter.js';
import type { WaitInfo } from '../../rate-limit/waiting-watch.js';
import { operationTypeOf } from '../../rate-limit/operation-type.js';
import { PausePastAllowanceSignal } from '../../rate-limit/pause-past-allowance.js';
import { errorBase, type ErrorContext } from '../../response/error-context.js';
import { interpretResponse } from '../../response/interpret-response.js';
import { showsOperationRan } from '../../response/operation-ran.js';
import { isRateLimited, readRateLimitInfo, type RateLimitInfo } from '../../response/rate-limit-info.js';
import { readStatedBudget } from '../../response/stated-budget.js';
import { AnsweredAttempt } from '../../response/response-metadata.js';
import { publicTransportError } from '../../response/transport-error.js';
import { isRetryable } from '../../retry/retry-policy.js';
import type { AttemptOptions, GraphQLTransport, HttpOutcome } from '../../transport/graphql-transport.js';
import { TransportFailureSignal } from '../../transport/transport-failure.js';
import type { CallSettings } from './call-settings.js';
import type { ClientEvents } from '../events/client-events.js';
import { telemetry, type Telemetry } from '../events/telemetry.js';
import { DEFAULTS } from '../options/options.js';
import type { RetrySafety } from '../facade/operations.js';
import { LazyModule } from './lazy-module.js';
import type { ResolvedClientOptions } from '../options/resolve-options.js';
import { UnreachableWait } from './unreachable-wait.js';

/** One call through the pipeline, with its settings (the client's, overridden by the call's options). */
export interface PipelineCall extends CallSettings {
  operation: string;
  /** One per call, the same over all its attempts (`newCallId()`). */
  callId: string;
  label: string;
  document: string;
  variables: object | undefined;
  /** `request()`'s `operationName`: which operation of the document runs. */
  operationName: string | undefined;
  /** True for `request()`: the caller wrote the document, not the SDK. */
  callerDocument: boolean;
  retry: RetrySafety;
  subscriptionReasons?: boolean;
  /** Told how many requests of the call have left, for a caller that must know whether any did (a bulk chunk). */
  progress: CallProgress | undefined;
}

/** How far a call got: whether its request ever left (a call that ended before then surely did not run). */
export interface CallProgress {
  /** Requests of the call handed to the transport so far. */
  sent: number;
}

/** What a call ended with: the response's `data`, and the attempt that brought it. */
export interface PipelineAnswer {
  data: Record<string, unknown>;
  /** The answered attempt (status, headers, request id, read on demand). */
  response: AnsweredAttempt;
  /** The call's error context with that response: errors found in the answer are built from it. */
  context: ErrorContext & { response: AnsweredAttempt };
  /** The variables as sent (a bulk answer is checked against its rows). */
  variables: object | undefined;
}

/** What one call has spent over all its attempts (p-retry's included): its requests, its 429s and their waits. */
interface CallBudget {
  /** Requests sent so far (the number of the last attempt). */
  sent: number;
  rateLimited: number;
  /** The 429 waits the call accepted, the one being waited included. */
  waitedMs: number;
}

type PRetry = typeof import('p-retry').default;
/** Loaded after a call's first failure: importing the SDK should not pay for it (most calls succeed at once). */
const P_RETRY = new LazyModule<PRetry>('p-retry', () => import('p-retry').then((module) => module.default));

/**
 * The life of every call: pacing (limiter) -> transport -> response parsing -> 429 pause and
 * re-queue (never for an answer that shows the operation ran) -> retry policy. Each AdminClient method is one row of the operations table run here.
 */
export class RequestPipeline {
  readonly #options: ResolvedClientOptions;
  readonly #transport: GraphQLTransport;
  readonly #limiter: RateLimiter | undefined;
  readonly #events: ClientEvents;
  /** The origin of `baseUrl`: a network error names where it could not connect (read on the first failure). */
  #origin: string | undefined;
  readonly #retries: LazyModule<PRetry>;

  /** @param retries - where p-retry comes from (not public: tests pass a module that fails to load). */
  constructor(options: ResolvedClientOptions, transport: GraphQLTransport, limiter: RateLimiter | undefined, events: ClientEvents, retries: LazyModule<PRetry> = P_RETRY) {
    this.#options = options;
    this.#transport = transport;
    this.#limiter = limiter;
    this.#events = events;
    this.#retries = retries;
  }

  /**
   * Runs a call to completion and returns what `finish` makes of its `data`, response and error
   * context, or the typed error it ended with (which carries the response when there was one).
   *
   * The first permit is asked for before anything else is made for the call: while it waits in the
   * queue (thousands may), a call holds its settings, its queue entry and one reaction, not its
   * error context, its budget or the suspended async functions of an attempt. `finish` (the
   * caller's reading of the answer) runs inside, so no second promise waits along.
   */
  run<T>(call: PipelineCall, finish: (answer: PipelineAnswer) => T): Promise<T> {
    const type = operationTypeOf(call.document);
    const observer = this.#telemetry();
    if (observer === undefined) return this.#start(call, type, finish);
    const { operation, callId, document, operationName } = call;
    return observer.call({ operation, callId, document, operationName, operationType: type, priority: call.priority ?? 'interactive', url: this.#options.endpoint }, () => this.#start(call, type, finish));
  }

  /** The instrumentation that sees this client's calls (`school-admin-sdk/otel`), unless `telemetry: false`. */
  #telemetry(): Telemetry | undefined {
    return this.#options.telemetry ? telemetry() : undefined;
  }

  /** The call itself: its first permit asked for at once (see {@link RequestPipeline.run}). */
  #start<T>(call: PipelineCall, type: RateLimitedOperationType, finish: (answer: PipelineAnswer) => T): Promise<T> {
    let permit: Promise<Permit> | undefined;
    try {
      permit = this.#acquire(call, type, 0, this.#options.maxRateLimitWaitMs);
    } catch (error) {
      // A store that throws instead of rejecting fails the call as a rejection would.
      return this.#notGranted(call, type, error, finish);
    }
    if (permit === undefined) return this.#run(call, type, undefined, finish);
    return permit.then(
      (granted) => this.#run(call, type, granted, finish),
      (error: unknown) => this.#notGranted(call, type, error, finish),
    );
  }

  /** The call from its first permit on (`undefined`: taken by the first attempt, when there is no limiter). */
  async #run<T>(call: PipelineCall, type: RateLimitedOperationType, permit: Permit | undefined, finish: (answer: PipelineAnswer) => T): Promise<T> {
    const context = this.#context(call);
    const budget = newBudget();
    let answer: PipelineAnswer;
    try {
      answer = await this.#attempt(call, context, type, budget, permit);
    } catch (error) {
      answer = await this.#afterFirstFailure(call, type, context, budget, error);
    }
    return finish(answer);
  }

  /** An abort (or a store failure) before the first permit: the first attempt's failure. */
  #notGranted<T>(call: PipelineCall, type: RateLimitedOperationType, error: unknown, finish: (answer: PipelineAnswer) => T): Promise<T> {
    const context = this.#context(call);
    const budget = newBudget();
    return this.#afterFirstFailure(call, type, context, budget, this.#permitError(error, context, type, budget)).then(finish);
  }

  /**
   * After a first failure: thrown as it is, or retried by p-retry (loaded and entered only now:
   * most calls succeed at once). A backoff after a failure that never reached the server is told
   * to `waiting` listeners as `'unreachable'` once it outlasts the waiting threshold.
   */
  async #afterFirstFailure(call: PipelineCall, type: RateLimitedOperationType, context: ErrorContext, budget: CallBudget, firstFailure: unknown): Promise<PipelineAnswer> {
    if (call.maxRetries === 0 || !isRetryable(firstFailure, call.retry)) throw firstFailure;
    // A typed rejection of this call, never an unhandled one; the next call imports it again.
    const pRetry = await this.#retries.get(context, `the retries after the first attempt's ${(firstFailure as Error | null)?.name ?? 'failure'} could not start`);
    const unreachable = this.#unreachableWait(call, type, budget);
    try {
      return await pRetry(
        (attemptNumber) => {
          // p-retry's first "attempt" replays the failure above, so its backoff schedule applies from the start.
          if (attemptNumber === 1) throw firstFailure;
          unreachable?.end();
          return this.#attempt(call, context, type, budget, undefined);
        },
        {
          retries: call.maxRetries,
          factor: 2,
          minTimeout: this.#options.retryBaseDelayMs,
          maxTimeout: this.#options.maxRetryDelayMs,
          randomize: true,
          ...(call.signal === undefined ? {} : { signal: call.signal }),
          shouldRetry: ({ error, retriesLeft, retriesConsumed }) => {
            const retry = isRetryable(error, call.retry);
            if (retry) this.#events.emit('retry', { operation: call.operation, callId: call.callId, attempt: budget.sent + 1, error: error.name, retriesLeft });
            if (retry && error instanceof NetworkError && !error.mayHaveReachedServer) unreachable?.begin(this.#retryDelayBoundMs(retriesConsumed), error.networkCode);
            return retry;
          },
        },
      );
    } finally {
      unreachable?.end();
    }
  }

  /** Tells the call's `waiting` listeners of its backoffs after the server could not be reached; undefined when nobody listens. */
  #unreachableWait(call: PipelineCall, type: RateLimitedOperationType, budget: CallBudget): UnreachableWait | undefined {
    if (!this.#events.listening('waiting')) return undefined;
    const { pacing } = this.#options;
    const priority = call.priority ?? 'interactive';
    return new UnreachableWait(pacing === false ? DEFAULTS.waitingThresholdMs : pacing.waitingThresholdMs, (wait) =>
      this.#events.emit('waiting', { operation: call.operation, callId: call.callId, attempt: budget.sent + 1, operationType: type, priority, reason: 'unreachable', ...wait }),
    );
  }

  /** The longest p-retry sleeps before the next attempt: its delay (base x 2^retries, times a random factor below 2), capped. */
  #retryDelayBoundMs(retriesConsumed: number): number {
    return Math.min(this.#options.maxRetryDelayMs, 2 * this.#options.retryBaseDelayMs * 2 ** retriesConsumed);
  }

  /** A new call's error context: its id, and a redactor that knows the key and the call's variables. */
  #context(call: PipelineCall): ErrorContext {
    // The variables as sent: checking them converts Dates to numbers and copies nothing else, so
    // their string leaves (what the redactor hides) are the caller's.
    return { operation: call.operation, label: call.label, redactor: new Redactor([this.#options.apiKey], call.variables), callId: call.callId };
  }

  /**
   * One attempt; a 429 pauses the type's queue and sends the request again from the queue's head.
   * An answer whose `data` shows the operation ran is never sent again, whatever errors ride along
   * (a rate-limit code included). The 429 waits of the whole call add up to at most
   * `maxRateLimitWaitMs`, and none is shorter than the fallback backoff.
   */
  async #attempt(call: PipelineCall, context: ErrorContext, type: RateLimitedOperationType, budget: CallBudget, permit: Permit | undefined): Promise<PipelineAnswer> {
    // The wait the call accepted after its own 429 is waited in the queue (the key's pause), within what it allowed for it.
    for (let taken = permit, acceptedWaitMs = 0; ; taken = undefined) {
      const outcome = await this.#send(call, context, type, budget, taken, this.#maxRateLimitWaitLeft(budget, acceptedWaitMs));
      this.#readStatedBudget(type, outcome.headers);
      // Errors built from here on come with this response.
      const answered = this.#answered(context, call, budget.sent, outcome);
      const ran = showsOperationRan(outcome);
      if (ran || !isRateLimited(outcome)) {
        const data = interpretResponse(outcome, {
          ...answered,
          authErrorCodes: this.#options.authErrorCodes,
          subscriptionReasons: call.subscriptionReasons === true,
          ran,
          callerDocument: call.callerDocument,
          // The server's prefix rule, or what the document is when that is not a query alone.
          mayChangeData: type === 'mutations' || call.retry === 'unsafe',
        });
        return { data, response: answered.response, context: answered, variables: call.variables };
      }
      budget.rateLimited += 1;
      const now = Date.now();
      const info = readRateLimitInfo(outcome, type, now);
      // Never sooner than the fallback: a hint of 0, or a reset time already past (clock skew),
      // would otherwise re-send at once, again and again. Whole milliseconds, rounded up (a reset time may have decimals).
      const waitMs = Math.ceil(Math.max(info.waitMs ?? 0, this.#fallbackWaitMs(type, budget.rateLimited)));
      const answer = { limit: info.limit, earliestRetryAt: info.earliestWaitMs === undefined ? undefined : now + info.earliestWaitMs, pauseUntil: now + waitMs };
      if (budget.rateLimited > call.maxRetries || budget.waitedMs + waitMs > this.#options.maxRateLimitWaitMs) {
        // The call gives up, but the server's wait holds every client of the key: they wait it out,
        // or fail at once when it is past their own allowance, rather than each sending into a 429.
        // The store failing to take it changes nothing for this call's error.
        await this.#limiter?.rateLimited(type, answer, now).catch(() => undefined);
        throw this.#rateLimitError(answered, info, waitMs, budget);
      }
      budget.waitedMs += waitMs;
      acceptedWaitMs = waitMs;
      this.#events.emit('rateLimited', {
        operation: call.operation,
        callId: call.callId,
        attempt: budget.sent,
        operationType: info.operationType,
        waitMs,
        limit: info.limit,
        count: budget.rateLimited,
      });
      if (this.#limiter === undefined) await abortableSleep(waitMs, call.signal);
      else await this.#limiter.rateLimited(type, answer, now);
    }
  }

  /**
   * Any answer may state the server's budget (src/response/stated-budget.ts): the limiter adopts
   * it. What it cannot use is ignored with a debug line, never an error.
   */
  #readStatedBudget(type: RateLimitedOperationType, headers: Headers): void {
    if (this.#limiter === undefined) return;
    const stated = readStatedBudget(headers);
    if (typeof stated === 'object') this.#limiter.stated(type, stated);
    else if (stated !== undefined && this.#options.logLevel === 'debug') this.#options.logger?.debug(`school-admin-sdk: ignored the ${type} budget stated in ${stated}`);
  }

  /**
   * Asks for a permit (undefined without a limiter); `sent` requests of the call went before, and
   * it may still wait `pauseAllowanceMs` on a 429's pause of the key.
   */
  #acquire(call: PipelineCall, type: RateLimitedOperationType, sent: number, pauseAllowanceMs: number): Promise<Permit> | undefined {
    if (this.#limiter === undefined) return undefined;
    const priority = call.priority ?? 'interactive';
    // A request sent again (after a 429 or a retried failure) goes to the head of its lane.
    return this.#limiter.acquire(type, {
      head: sent > 0,
      priority,
      pauseAllowanceMs,
      ...(call.signal === undefined ? {} : { signal: call.signal }),
      ...(this.#events.listening('waiting')
        ? { onWaiting: (wait: WaitInfo) => this.#events.emit('waiting', { operation: call.operation, callId: call.callId, attempt: sent + 1, operationType: type, priority, ...wait }) }
        : {}),
    });
  }

  /** How long the call may still wait on a 429's pause of the key: its allowance left, and the wait it accepted last, not yet spent. */
  #maxRateLimitWaitLeft(budget: CallBudget, acceptedWaitMs: number): number {
    return this.#options.maxRateLimitWaitMs - budget.waitedMs + acceptedWaitMs;
  }

  /** A failure to get a permit as the caller sees it: a pause past the call's allowance is its `RateLimitError`. */
  #permitError(error: unknown, context: ErrorContext, type: RateLimitedOperationType, budget: CallBudget): unknown {
    return error instanceof PausePastAllowanceSignal ? this.#pausedError(context, type, error, budget) : error;
  }

  /** Sends one request under `taken` (the call's first permit) or a permit asked for now, waiting at most `pauseAllowanceMs` on the key's pause. */
  async #send(call: PipelineCall, context: ErrorContext, type: RateLimitedOperationType, budget: CallBudget, taken: Permit | undefined, pauseAllowanceMs: number): Promise<HttpOutcome> {
    let permit = taken;
    if (permit === undefined) {
      try {
        permit = await this.#acquire(call, type, budget.sent, pauseAllowanceMs);
      } catch (error) {
        throw this.#permitError(error, context, type, budget);
      }
    }
    if (call.signal?.aborted === true) {
      // Aborted while it waited (or before the call): nothing leaves, and the call says so.
      permit?.release();
      throw call.signal.reason;
    }
    budget.sent += 1;
    if (call.progress !== undefined) call.progress.sent = budget.sent;
    const attempt = budget.sent;
    if (this.#events.listening('request')) this.#events.emit('request', { operation: call.operation, callId: call.callId, operationType: type, attempt, waited: permit?.waited });
    let neverLeft = false;
    try {
      const observer = this.#telemetry();
      return await (observer === undefined
        ? this.#exchange(call, context, type, attempt, call)
        : observer.attempt(call.callId, attempt, (headers) => this.#exchange(call, context, type, attempt, { signal: call.signal, timeoutMs: call.timeoutMs, headers: { ...call.headers, ...headers } })));
    } catch (error) {
      neverLeft = error instanceof NetworkError && !error.mayHaveReachedServer;
      throw error;
    } finally {
      // Released when the answer (or the failure) arrived: the request counts for one more window.
      // One that surely never reached the server (no connection) gives its permit back at once.
      if (neverLeft) permit?.giveBack();
      else permit?.release();
    }
  }

  /** One request on the wire: its HTTP outcome, or its failure as the public error class. */
  async #exchange(call: PipelineCall, context: ErrorContext, type: RateLimitedOperationType, attempt: number, options: AttemptOptions): Promise<HttpOutcome> {
    const started = performance.now();
    try {
      const outcome = await this.#transport.send(call, options);
      if (this.#events.listening('response')) {
        this.#events.emit('response', { operation: call.operation, callId: call.callId, operationType: type, attempt, status: outcome.status, durationMs: Math.round(performance.now() - started) });
      }
      return outcome;
    } catch (error) {
      // A redirect or an unusable body came with a response; a network failure or a timeout did not.
      const response = error instanceof TransportFailureSignal ? error.response : undefined;
      throw publicTransportError(error, response === undefined ? context : this.#answered(context, call, attempt, response), { timeoutMs: call.timeoutMs, origin: (this.#origin ??= new URL(this.#options.endpoint).origin) });
    }
  }

  /** The call's error context once an attempt was answered: errors built from it carry the response. */
  #answered(context: ErrorContext, call: PipelineCall, attempt: number, response: { status: number; headers: Headers }): ErrorContext & { response: AnsweredAttempt } {
    const reading = { redactor: context.redactor, requestIdHeaders: this.#options.requestIdHeaders };
    return { ...context, response: new AnsweredAttempt(response.status, response.headers, reading, { callId: call.callId, attempt }) };
  }

  /**
   * The fallback backoff: the wait after a 429 without any usable hint, and the shortest wait after
   * any 429. From 1 s, doubling per 429 of the call, at most one window.
   */
  #fallbackWaitMs(type: RateLimitedOperationType, count: number): number {
    const windowMs = this.#limiter?.budget(type).windowMs ?? 60_000;
    return Math.min(windowMs, 1000 * 2 ** (count - 1));
  }

  /** The key is paused after a 429 (this client's or another's) for longer than the call may wait: it fails, nothing sent. */
  #pausedError(context: ErrorContext, type: RateLimitedOperationType, signal: PausePastAllowanceSignal, budget: CallBudget): RateLimitError {
    const maxWait = this.#options.maxRateLimitWaitMs;
    const waited = budget.waitedMs > 0 ? `, ${budget.waitedMs} ms already waited` : '';
    return new RateLimitError(
      `Failed to ${context.label}: the ${type} rate limit was exhausted and every client of the key waits ${seconds(signal.retryAfterMs)} s after a 429, past this call's maxRateLimitWaitMs (${maxWait} ms${waited}); nothing was sent. Retry after ${seconds(signal.retryAfterMs)} s.`,
      { ...errorBase(context), operationType: type, limit: undefined, retryAfterMs: signal.retryAfterMs, resetAt: undefined },
    );
  }

  #rateLimitError(context: ErrorContext, info: RateLimitInfo, waitMs: number, budget: CallBudget): RateLimitError {
    const maxWait = this.#options.maxRateLimitWaitMs;
    const why =
      budget.waitedMs + waitMs > maxWait
        ? `the next wait of ${seconds(waitMs)} s would take this call's waiting past maxRateLimitWaitMs (${maxWait} ms${budget.waitedMs > 0 ? `, ${budget.waitedMs} ms already waited` : ''})`
        : `it was still exhausted after ${budget.rateLimited} attempts`;
    return new RateLimitError(
      `Failed to ${context.label}: the ${info.operationType} rate limit${info.limit === undefined ? '' : ` (${info.limit} per window)`} was exhausted and ${why}. Another client may be using the same key; retry after ${seconds(waitMs)} s.`,
      {
        ...errorBase(context),
        operationType: info.operationType,
        limit: info.limit,
        retryAfterMs: waitMs,
        resetAt: info.resetAt,
      },
    );
  }
}

function newBudget(): CallBudget {
  return { sent: 0, rateLimited: 0, waitedMs: 0 };
}

function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}
