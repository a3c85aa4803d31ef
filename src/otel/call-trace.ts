import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { RateLimitedEvent, RequestEvent, RetryEvent } from '../client/events/client-events.js';
import type { TelemetryCall } from '../client/events/telemetry.js';
import type { PermitWait } from '../rate-limit/permit-queue.js';
import type { HttpOutcome } from '../transport/graphql-transport.js';
import { errorMessage, errorType, ranOf } from './error-facts.js';
import type { CallShape } from './call-shapes.js';
import type { Instruments, Tallies } from './instruments.js';
import type { JobTrace } from './job-trace.js';
import { ATTR, EVENT } from './semantic.js';

/** What every trace of the instrumentation records with. */
export interface Recorder {
  readonly tracer: Tracer;
  readonly instruments: Instruments;
  readonly tallies: Tallies;
}

/** Milliseconds since the epoch, to the fraction (spans' explicit times). */
export function epochMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * One call seen by the instrumentation: its span (INTERNAL, named by the GraphQL conventions), a
 * CLIENT span per HTTP attempt, a span per wait for a permit or a retry, and its metrics. A row of
 * `grantCouponToMany` (`job` set, `span` undefined) records no span of its own: its job does.
 */
export class CallTrace {
  /** The context the call's work runs in: its span's, or its job's for a row. */
  readonly context: Context;
  readonly #recorder: Recorder;
  readonly #shape: CallShape;
  readonly #span: Span | undefined;
  readonly #job: JobTrace | undefined;
  readonly #started = performance.now();
  #attempts = 0;
  /** Whether the call counts among the waiting calls now. */
  #waiting = false;
  /** A retry's backoff under way: when it began and why. */
  #backoff: { since: number; error: string } | undefined;
  /** When a 429 paused the call, until its request goes again. */
  #pausedSince: number | undefined;

  /** `server.address`, `server.port`, `url.full`. */
  readonly #server: Attributes;

  constructor(recorder: Recorder, call: TelemetryCall, shape: CallShape, server: Attributes, parent: Context, job: JobTrace | undefined) {
    this.#recorder = recorder;
    this.#shape = shape;
    this.#server = server;
    this.#job = job;
    if (job?.rowsAreCalls === true) {
      this.context = parent;
    } else {
      this.#span = recorder.tracer.startSpan(shape.spanName, { kind: SpanKind.INTERNAL, attributes: { ...shape.spanAttributes, [ATTR.CALL_ID]: call.callId } }, parent);
      this.context = trace.setSpan(parent, this.#span);
    }
    this.#wait(true);
  }

  /** Counts the call among the waiting calls, or no longer. */
  #wait(waiting: boolean): void {
    if (this.#waiting === waiting) return;
    this.#waiting = waiting;
    this.#shape.waiting.value += waiting ? 1 : -1;
  }

  /** An attempt is about to be sent (`request` event): the wait before it ends. */
  onRequest(event: RequestEvent): void {
    this.#wait(false);
    const now = epochMs();
    const { waited } = event;
    // A wait in the queue gets its own span; the time before it (a backoff) or a pause without a
    // queue (limits: false) gets one too.
    const queuedSince = now - (waited?.waitedMs ?? 0);
    if (this.#backoff !== undefined) {
      this.#childSpan('retry backoff', this.#backoff.since, queuedSince, { [ATTR.ERROR_TYPE]: this.#backoff.error, [ATTR.ATTEMPT]: event.attempt });
    } else if (this.#pausedSince !== undefined && waited === undefined) {
      this.#childSpan('rate limit pause', this.#pausedSince, now, { [ATTR.WAIT_REASON]: 'paused', [ATTR.ATTEMPT]: event.attempt });
    }
    this.#backoff = undefined;
    this.#pausedSince = undefined;
    if (waited !== undefined) this.#permitWaited(waited, now);
  }

  #permitWaited(waited: PermitWait, now: number): void {
    this.#recorder.instruments.permitWaitTime.record(waited.waitedMs / 1000, { ...this.#shape.lane, [ATTR.WAIT_REASON]: waited.reason });
    if (this.#job !== undefined) {
      this.#job.permitWaited(waited);
      if (this.#job.rowsAreCalls) return;
    }
    const { budget } = waited;
    this.#childSpan('permit wait', now - waited.waitedMs, now, {
      [ATTR.WAIT_REASON]: waited.reason,
      [ATTR.WAIT_MS]: Math.round(waited.waitedMs),
      [ATTR.BUDGET_LIMIT]: budget.limit,
      [ATTR.BUDGET_WINDOW_MS]: budget.windowMs,
      [ATTR.BUDGET_SOURCE]: budget.source,
    });
  }

  #childSpan(name: string, startMs: number, endMs: number, attributes: Attributes): void {
    if (this.#span === undefined) return;
    this.#recorder.tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: startMs, attributes }, this.context).end(endMs);
  }

  /** A 429 paused the call (`rateLimited` event). */
  onRateLimited(event: RateLimitedEvent): void {
    this.#wait(true);
    this.#pausedSince = epochMs();
    this.#recorder.instruments.rateLimitedResponses.add(1, this.#shape.rateLimited);
    this.#job?.rateLimited(event);
    this.#span?.addEvent(EVENT.RATE_LIMITED, {
      [ATTR.ATTEMPT]: event.attempt,
      [ATTR.PAUSE_MS]: event.waitMs,
      [ATTR.RATE_LIMITED_COUNT]: event.count,
      ...(event.limit === undefined ? {} : { [ATTR.RATE_LIMIT]: event.limit }),
    });
  }

  /** A failed attempt is retried after a backoff (`retry` event). */
  onRetry(event: RetryEvent): void {
    this.#wait(true);
    this.#backoff = { since: epochMs(), error: event.error };
    this.#span?.addEvent(EVENT.RETRY, { [ATTR.ATTEMPT]: event.attempt, [ATTR.ERROR_TYPE]: event.error, [ATTR.RETRIES_LEFT]: event.retriesLeft });
  }

  /**
   * Sends attempt `attempt` in its CLIENT span's context, with the headers that carry that context
   * (`traceparent`, `tracestate`, through the app's propagator): the fetch spans of the undici
   * instrumentation nest under it, and the server's spans join the trace.
   */
  attempt<T>(attempt: number, send: (headers: Record<string, string>) => Promise<T>, inject: (context: Context) => Record<string, string>): Promise<T> {
    this.#attempts = attempt;
    this.#job?.requested();
    if (this.#span === undefined) return context.with(this.context, () => send(inject(this.context)));
    const span = this.#recorder.tracer.startSpan(
      'POST',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTR.HTTP_REQUEST_METHOD]: 'POST',
          ...this.#server,
          ...(attempt > 1 ? { [ATTR.HTTP_REQUEST_RESEND_COUNT]: attempt - 1 } : {}),
          [ATTR.ATTEMPT]: attempt,
        },
      },
      this.context,
    );
    const attemptContext = trace.setSpan(this.context, span);
    const sent = context.with(attemptContext, () => send(inject(attemptContext)));
    sent.then(
      (outcome) => endAttempt(span, (outcome as HttpOutcome | undefined)?.status, undefined),
      (error: unknown) => endAttempt(span, (error as { status?: unknown } | null)?.status, error),
    );
    return sent;
  }

  /** The call ended: with its result, or with `error`. */
  end(failed: boolean, error: unknown, result: unknown): void {
    this.#wait(false);
    const durationS = (performance.now() - this.#started) / 1000;
    const span = this.#span;
    if (failed) {
      const errorTypeOf = errorType(error);
      const ran = ranOf(error, this.#attempts);
      this.#recorder.instruments.operationDuration.record(durationS, { ...this.#shape.operation, [ATTR.ERROR_TYPE]: errorTypeOf, [ATTR.RAN]: ran });
      span?.setAttributes({ [ATTR.ATTEMPTS]: this.#attempts, [ATTR.ERROR_TYPE]: errorTypeOf, [ATTR.RAN]: ran });
      span?.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
    } else {
      this.#recorder.instruments.operationDuration.record(durationS, this.#shape.succeeded);
      span?.setAttribute(ATTR.ATTEMPTS, this.#attempts).setAttribute(ATTR.RAN, 'yes');
    }
    this.#job?.callEnded(failed, error, result);
    span?.end();
  }
}

/** Ends an attempt's CLIENT span: its status code, and as the HTTP conventions say, an error from 400 up. */
function endAttempt(span: Span, status: unknown, error: unknown): void {
  try {
    if (typeof status === 'number') span.setAttribute(ATTR.HTTP_RESPONSE_STATUS_CODE, status);
    if (typeof status === 'number' && status >= 400) {
      span.setAttribute(ATTR.ERROR_TYPE, String(status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    } else if (error !== undefined) {
      span.setAttribute(ATTR.ERROR_TYPE, errorType(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
    }
    span.end();
  } catch {
    // A span's bug never reaches the call.
  }
}
