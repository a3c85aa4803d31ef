import { RateLimitError } from '../errors/rate-limit-error.js';
import { abortableSleep } from '../rate-limit/abortable-sleep.js';
import type { RateLimitedOperationType } from '../rate-limit/bucket-name.js';
import type { RateLimiter } from '../rate-limit/limiter.js';
import type { Priority } from '../rate-limit/priority.js';
import type { WaitInfo } from '../rate-limit/waiting-watch.js';
import { operationTypeOf } from '../rate-limit/operation-type.js';
import type { ErrorContext } from '../response/error-context.js';
import { interpretResponse } from '../response/interpret-response.js';
import { isRateLimited, readRateLimitInfo, type RateLimitInfo } from '../response/rate-limit-info.js';
import { publicTransportError } from '../response/transport-error.js';
import { isRetryable } from '../retry/retry-policy.js';
import type { GraphQLTransport, HttpOutcome } from '../transport/graphql-transport.js';
import type { ClientEvents } from './client-events.js';
import type { RetrySafety } from './operations.js';
import type { ResolvedClientOptions } from './resolve-options.js';

/** One call through the pipeline. */
export interface PipelineCall {
  operation: string;
  label: string;
  document: string;
  variables?: object;
  retry: RetrySafety;
  subscriptionReasons?: boolean;
  signal?: AbortSignal;
  /** The lane the call waits in for its permit; `'interactive'` when not given. */
  priority?: Priority;
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
 * re-queue -> retry policy. Each AdminClient method is one row of the operations table run here.
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

  /** Runs a call to completion: its `data`, or the typed error it ended with. */
  async run(call: PipelineCall, context: ErrorContext): Promise<Record<string, unknown>> {
    const type = operationTypeOf(call.document);
    let firstFailure: unknown;
    try {
      return await this.#attempt(call, context, type, 1);
    } catch (error) {
      // Most calls succeed at once: p-retry is loaded and entered only after a failure.
      if (this.#options.maxRetries === 0 || !isRetryable(error, call.retry)) throw error;
      firstFailure = error;
    }
    const pRetry = await loadPRetry();
    let attempt = 1;
    return pRetry(
      (attemptNumber) => {
        // p-retry's first "attempt" replays the failure above, so its backoff schedule applies from the start.
        if (attemptNumber === 1) throw firstFailure;
        attempt = attemptNumber;
        return this.#attempt(call, context, type, attemptNumber);
      },
      {
        retries: this.#options.maxRetries,
        factor: 2,
        minTimeout: this.#options.retryBaseDelayMs,
        maxTimeout: this.#options.maxRetryDelayMs,
        randomize: true,
        ...(call.signal === undefined ? {} : { signal: call.signal }),
        shouldRetry: ({ error, retriesLeft }) => {
          const retry = isRetryable(error, call.retry);
          if (retry) this.#events.emit('retry', { operation: call.operation, attempt: attempt + 1, error: error.name, retriesLeft });
          return retry;
        },
      },
    );
  }

  /** One attempt; a 429 pauses the type's queue and sends the request again from the queue's head. */
  async #attempt(call: PipelineCall, context: ErrorContext, type: RateLimitedOperationType, attempt: number): Promise<Record<string, unknown>> {
    let rateLimited = 0;
    for (;;) {
      const outcome = await this.#send(call, context, type, attempt, rateLimited > 0 || attempt > 1);
      if (!isRateLimited(outcome)) {
        return interpretResponse(outcome, {
          ...context,
          authErrorCodes: this.#options.authErrorCodes,
          subscriptionReasons: call.subscriptionReasons === true,
        });
      }
      rateLimited += 1;
      const info = readRateLimitInfo(outcome, type, Date.now());
      if (info.limit !== undefined) this.#limiter?.adaptLimit(type, info.limit);
      const waitMs = info.waitMs ?? this.#fallbackWaitMs(type, rateLimited);
      if (rateLimited > this.#options.maxRetries || waitMs > this.#options.maxRateLimitWaitMs) {
        throw this.#rateLimitError(context, info, waitMs, rateLimited);
      }
      this.#events.emit('rateLimited', { operation: call.operation, operationType: info.operationType, waitMs, limit: info.limit, count: rateLimited });
      if (this.#limiter === undefined) await abortableSleep(waitMs, call.signal);
      else await this.#limiter.pause(type, Date.now() + waitMs);
    }
  }

  async #send(call: PipelineCall, context: ErrorContext, type: RateLimitedOperationType, attempt: number, head: boolean): Promise<HttpOutcome> {
    const priority = call.priority ?? 'interactive';
    const permit = await this.#limiter?.acquire(type, {
      head,
      priority,
      ...(call.signal === undefined ? {} : { signal: call.signal }),
      ...(this.#events.listening('waiting') ? { onWaiting: (wait: WaitInfo) => this.#events.emit('waiting', { operation: call.operation, operationType: type, priority, ...wait }) } : {}),
    });
    if (this.#events.listening('request')) this.#events.emit('request', { operation: call.operation, operationType: type, attempt });
    const started = performance.now();
    try {
      const outcome = await this.#transport.send(call.document, call.variables, call.signal);
      if (this.#events.listening('response')) {
        this.#events.emit('response', { operation: call.operation, operationType: type, attempt, status: outcome.status, durationMs: performance.now() - started });
      }
      return outcome;
    } catch (error) {
      throw publicTransportError(error, context, this.#options.timeoutMs);
    } finally {
      // Released when the answer (or the failure) arrived: the request counts for one more window.
      permit?.release();
    }
  }

  /** A 429 without any usable wait hint: back off exponentially from 1 s, at most one window. */
  #fallbackWaitMs(type: RateLimitedOperationType, count: number): number {
    const windowMs = this.#limiter?.budget(type).windowMs ?? 60_000;
    return Math.min(windowMs, 1000 * 2 ** (count - 1));
  }

  #rateLimitError(context: ErrorContext, info: RateLimitInfo, waitMs: number, count: number): RateLimitError {
    const why =
      waitMs > this.#options.maxRateLimitWaitMs
        ? `the server asks for a ${Math.ceil(waitMs / 1000)} s wait, more than maxRateLimitWaitMs`
        : `it was still exhausted after ${count} attempts`;
    return new RateLimitError(
      `Failed to ${context.label}: the ${info.operationType} rate limit${info.limit === undefined ? '' : ` (${info.limit} per window)`} was exhausted and ${why}. Another client may be using the same key; retry after ${Math.ceil(waitMs / 1000)} s.`,
      {
        operation: context.operation,
        redactor: context.redactor,
        operationType: info.operationType,
        limit: info.limit,
        retryAfterMs: waitMs,
        resetAt: info.resetAt,
      },
    );
  }
}
