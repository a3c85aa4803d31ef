import { RateLimitError } from '../errors/rate-limit-error.js';
import { abortableSleep } from '../rate-limit/abortable-sleep.js';
import type { RateLimitedOperationType } from '../rate-limit/bucket-name.js';
import type { RateLimiter } from '../rate-limit/limiter.js';
import type { WaitInfo } from '../rate-limit/waiting-watch.js';
import { operationTypeOf } from '../rate-limit/operation-type.js';
import { errorBase, type ErrorContext } from '../response/error-context.js';
import { interpretResponse } from '../response/interpret-response.js';
import { showsOperationRan } from '../response/operation-ran.js';
import { isRateLimited, readRateLimitInfo, type RateLimitInfo } from '../response/rate-limit-info.js';
import { AnsweredAttempt } from '../response/response-metadata.js';
import { publicTransportError } from '../response/transport-error.js';
import { isRetryable } from '../retry/retry-policy.js';
import type { GraphQLTransport, HttpOutcome } from '../transport/graphql-transport.js';
import { TransportFailureSignal } from '../transport/transport-failure.js';
import type { CallSettings } from './call-settings.js';
import type { ClientEvents } from './client-events.js';
import type { RetrySafety } from './operations.js';
import type { ResolvedClientOptions } from './resolve-options.js';

/** One call through the pipeline, with its settings (the client's, overridden by the call's options). */
export interface PipelineCall extends CallSettings {
  operation: string;
  /** One per call, the same over all its attempts (`newCallId()`). */
  callId: string;
  label: string;
  document: string;
  variables?: object;
  retry: RetrySafety;
  subscriptionReasons?: boolean;
}

/** What a call ended with: the response's `data`, and the attempt that brought it. */
export interface PipelineAnswer {
  data: Record<string, unknown>;
  /** The answered attempt (status, headers, request id, read on demand). */
  response: AnsweredAttempt;
}

/** What one call has spent over all its attempts (p-retry's included): its requests, its 429s and their waits. */
interface CallBudget {
  /** Requests sent so far (the number of the last attempt). */
  sent: number;
  rateLimited: number;
  waitedMs: number;
}

type PRetry = typeof import('p-retry').default;
let pRetryModule: Promise<PRetry> | undefined;
/** Loaded on first use: importing the SDK should not pay for it. */
function loadPRetry(): Promise<PRetry> {
  pRetryModule ??= import('p-retry').then((module) => module.default);
  return pRetryModule;
}

/**
 * The life of every call: pacing (limiter) -> transport -> response parsing -> 429 pause and
 * re-queue (never for an answer that shows the operation ran) -> retry policy. Each AdminClient method is one row of the operations table run here.
 */
export class RequestPipeline {
  readonly #options: ResolvedClientOptions;
  readonly #transport: GraphQLTransport;
  readonly #limiter: RateLimiter | undefined;
  readonly #events: ClientEvents;

  constructor(options: ResolvedClientOptions, transport: GraphQLTransport, limiter: RateLimiter | undefined, events: ClientEvents) {
    this.#options = options;
    this.#transport = transport;
    this.#limiter = limiter;
    this.#events = events;
  }

  /**
   * Runs a call to completion: its `data` and response, or the typed error it ended with (which
   * carries the response when there was one).
   */
  async run(call: PipelineCall, context: ErrorContext): Promise<PipelineAnswer> {
    const type = operationTypeOf(call.document);
    const budget: CallBudget = { sent: 0, rateLimited: 0, waitedMs: 0 };
    let firstFailure: unknown;
    try {
      return await this.#attempt(call, context, type, budget);
    } catch (error) {
      // Most calls succeed at once: p-retry is loaded and entered only after a failure.
      if (call.maxRetries === 0 || !isRetryable(error, call.retry)) throw error;
      firstFailure = error;
    }
    const pRetry = await loadPRetry();
    return pRetry(
      (attemptNumber) => {
        // p-retry's first "attempt" replays the failure above, so its backoff schedule applies from the start.
        if (attemptNumber === 1) throw firstFailure;
        return this.#attempt(call, context, type, budget);
      },
      {
        retries: call.maxRetries,
        factor: 2,
        minTimeout: this.#options.retryBaseDelayMs,
        maxTimeout: this.#options.maxRetryDelayMs,
        randomize: true,
        ...(call.signal === undefined ? {} : { signal: call.signal }),
        shouldRetry: ({ error, retriesLeft }) => {
          const retry = isRetryable(error, call.retry);
          if (retry) this.#events.emit('retry', { operation: call.operation, callId: call.callId, attempt: budget.sent + 1, error: error.name, retriesLeft });
          return retry;
        },
      },
    );
  }

  /**
   * One attempt; a 429 pauses the type's queue and sends the request again from the queue's head.
   * An answer whose `data` shows the operation ran is never sent again, whatever errors ride along
   * (a rate-limit code included). The 429 waits of the whole call add up to at most
   * `maxRateLimitWaitMs`, and none is shorter than the fallback backoff.
   */
  async #attempt(call: PipelineCall, context: ErrorContext, type: RateLimitedOperationType, budget: CallBudget): Promise<PipelineAnswer> {
    for (;;) {
      const outcome = await this.#send(call, context, type, budget);
      // Errors built from here on come with this response.
      const answered = this.#answered(context, call, budget.sent, outcome);
      const ran = showsOperationRan(outcome);
      if (ran || !isRateLimited(outcome)) {
        const data = interpretResponse(outcome, {
          ...answered,
          authErrorCodes: this.#options.authErrorCodes,
          subscriptionReasons: call.subscriptionReasons === true,
          ran,
        });
        return { data, response: answered.response };
      }
      budget.rateLimited += 1;
      const info = readRateLimitInfo(outcome, type, Date.now());
      if (info.limit !== undefined) this.#limiter?.adaptLimit(type, info.limit);
      // Never sooner than the fallback: a hint of 0, or a reset time already past (clock skew),
      // would otherwise re-send at once, again and again.
      const waitMs = Math.max(info.waitMs ?? 0, this.#fallbackWaitMs(type, budget.rateLimited));
      if (budget.rateLimited > call.maxRetries || budget.waitedMs + waitMs > this.#options.maxRateLimitWaitMs) {
        throw this.#rateLimitError(answered, info, waitMs, budget);
      }
      budget.waitedMs += waitMs;
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
      else await this.#limiter.pause(type, Date.now() + waitMs);
    }
  }

  async #send(call: PipelineCall, context: ErrorContext, type: RateLimitedOperationType, budget: CallBudget): Promise<HttpOutcome> {
    const priority = call.priority ?? 'interactive';
    // A request sent again (after a 429 or a retried failure) goes to the head of its lane.
    const permit = await this.#limiter?.acquire(type, {
      head: budget.sent > 0,
      priority,
      ...(call.signal === undefined ? {} : { signal: call.signal }),
      ...(this.#events.listening('waiting')
        ? { onWaiting: (wait: WaitInfo) => this.#events.emit('waiting', { operation: call.operation, callId: call.callId, attempt: budget.sent + 1, operationType: type, priority, ...wait }) }
        : {}),
    });
    budget.sent += 1;
    const attempt = budget.sent;
    if (this.#events.listening('request')) this.#events.emit('request', { operation: call.operation, callId: call.callId, operationType: type, attempt });
    const started = performance.now();
    try {
      const outcome = await this.#transport.send(call.document, call.variables, call);
      if (this.#events.listening('response')) {
        this.#events.emit('response', { operation: call.operation, callId: call.callId, operationType: type, attempt, status: outcome.status, durationMs: performance.now() - started });
      }
      return outcome;
    } catch (error) {
      // A redirect or an unusable body came with a response; a network failure or a timeout did not.
      const response = error instanceof TransportFailureSignal ? error.response : undefined;
      throw publicTransportError(error, response === undefined ? context : this.#answered(context, call, attempt, response), call.timeoutMs);
    } finally {
      // Released when the answer (or the failure) arrived: the request counts for one more window.
      permit?.release();
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

function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}
