import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { RateLimitedEvent } from '../client/events/client-events.js';
import type { TelemetryJob } from '../client/events/telemetry.js';
import type { PermitWait } from '../rate-limit/permit-queue.js';
import { epochMs, type Recorder } from './call-trace.js';
import { errorMessage, errorType, ranOf } from './error-facts.js';
import { ATTR } from './semantic.js';

/** The job whose calls are its rows: one grant per member, so no span per call. */
const ROW_JOBS: ReadonlySet<string> = new Set(['grantCouponToMany']);

/** A pause after 429s while a job runs: the 429s of one burst merge into one. */
interface Pause {
  since: number;
  /** When the server said the job may go on (the longest wait of its 429s). */
  until: number;
  count: number;
  pauseMs: number;
  limit: number | undefined;
  /** The budget in force when the job went on (from the first permit granted after the pause). */
  budget: PermitWait['budget'] | undefined;
}

/**
 * One job (`grantCouponToMany`, a bulk call sent in chunks) seen by the instrumentation: one span
 * for the whole job with its counts, a span per 429 pause, and the rows done as they finish
 * (`school_admin.client.job.rows`). The chunks of a bulk call are calls with their own spans under
 * the job's; the grants of `grantCouponToMany` are not (100,000 rows, one span).
 */
export class JobTrace {
  readonly context: Context;
  /** True when each call of the job is one row (no span per call). */
  readonly rowsAreCalls: boolean;
  readonly #recorder: Recorder;
  readonly #job: TelemetryJob;
  readonly #span: Span;
  /** Rows counted by outcome as their calls ended (the rest is added from the job's result). */
  readonly #counted = new Map<string, number>();
  #calls = 0;
  #requests = 0;
  #rateLimited = 0;
  #waitedRequests = 0;
  #pause: Pause | undefined;

  constructor(recorder: Recorder, job: TelemetryJob, parent: Context) {
    this.#recorder = recorder;
    this.#job = job;
    this.rowsAreCalls = ROW_JOBS.has(job.operation);
    this.#span = recorder.tracer.startSpan(
      job.operation,
      { kind: SpanKind.INTERNAL, attributes: { [ATTR.METHOD]: job.operation, ...(job.rows === undefined ? {} : { [ATTR.JOB_ROW_COUNT]: job.rows }) } },
      parent,
    );
    this.context = trace.setSpan(parent, this.#span);
  }

  /** A request of the job's calls is about to leave: a pause before it is over. */
  requested(): void {
    this.#requests += 1;
    if (this.#pause !== undefined) this.#endPause(epochMs());
  }

  /** A request of the job waited in the queue for its permit (the first after a pause says the budget it goes on under). */
  permitWaited(waited: PermitWait): void {
    this.#waitedRequests += 1;
    if (this.#pause !== undefined) this.#pause.budget = waited.budget;
  }

  /** A request of the job was answered 429: the job pauses (429s of one burst extend one pause). */
  rateLimited(event: RateLimitedEvent): void {
    this.#rateLimited += 1;
    const now = epochMs();
    const pause = this.#pause;
    if (pause === undefined) {
      this.#pause = { since: now, until: now + event.waitMs, count: 1, pauseMs: event.waitMs, limit: event.limit, budget: undefined };
      return;
    }
    pause.count += 1;
    pause.until = Math.max(pause.until, now + event.waitMs);
    pause.pauseMs = Math.max(pause.pauseMs, event.waitMs);
    pause.limit ??= event.limit;
  }

  #endPause(endMs: number): void {
    const pause = this.#pause;
    this.#pause = undefined;
    if (pause === undefined) return;
    const { budget } = pause;
    this.#recorder.tracer
      .startSpan(
        'rate limit pause',
        {
          kind: SpanKind.INTERNAL,
          startTime: pause.since,
          attributes: {
            [ATTR.WAIT_REASON]: 'paused',
            [ATTR.WAIT_MS]: Math.round(endMs - pause.since),
            [ATTR.PAUSE_MS]: pause.pauseMs,
            [ATTR.RATE_LIMITED_COUNT]: pause.count,
            ...(pause.limit === undefined ? {} : { [ATTR.RATE_LIMIT]: pause.limit }),
            ...(budget === undefined ? {} : { [ATTR.BUDGET_LIMIT]: budget.limit, [ATTR.BUDGET_WINDOW_MS]: budget.windowMs, [ATTR.BUDGET_SOURCE]: budget.source }),
          },
        },
        this.context,
      )
      .end(endMs);
  }

  /** One of the job's calls ended: its rows are done (counted live; the job's result completes the count). */
  callEnded(failed: boolean, error: unknown, result: unknown): void {
    this.#calls += 1;
    if (this.rowsAreCalls) {
      // A grant: created or already held; a failure of the SDK's (an abort by the job's interrupt is no row's outcome).
      if (!failed) this.#rows((result as { data?: { created?: unknown } } | undefined)?.data?.created === true ? 'created' : 'already_granted', 1);
      else if (typeof (error as { ran?: unknown } | null)?.ran === 'string') this.#rows('failed', 1);
      return;
    }
    if (failed) return;
    const rows = (result as { data?: { results?: readonly { errors?: readonly unknown[] }[] } } | undefined)?.data?.results ?? [];
    const withErrors = rows.filter((row) => (row.errors?.length ?? 0) > 0).length;
    this.#rows('succeeded', rows.length - withErrors);
    this.#rows('failed', withErrors);
  }

  #rows(outcome: string, count: number): void {
    if (count <= 0) return;
    this.#counted.set(outcome, (this.#counted.get(outcome) ?? 0) + count);
    this.#recorder.tallies.addJobRows(count, this.#job.operation, outcome);
  }

  /** The job ended with `result` (a `GrantToManySummary`, a bulk call's answer) or `error`. */
  end(failed: boolean, error: unknown, result: unknown): void {
    const now = epochMs();
    if (this.#pause !== undefined) this.#endPause(Math.min(now, this.#pause.until));
    const attributes: Attributes = {
      [ATTR.JOB_REQUEST_COUNT]: this.#requests,
      [ATTR.JOB_RATE_LIMITED_COUNT]: this.#rateLimited,
      [ATTR.JOB_WAITED_REQUEST_COUNT]: this.#waitedRequests,
    };
    if (!this.rowsAreCalls) attributes[ATTR.JOB_CHUNK_COUNT] = this.#calls;
    const summary = failed ? undefined : (result as GrantSummaryShape | undefined);
    if (this.rowsAreCalls && summary?.counts !== undefined) {
      // Rows that made no call (invalid, skipped from the journal) are known only now.
      for (const [outcome, count] of Object.entries(summary.counts)) {
        if (typeof count !== 'number') continue;
        this.#rows(outcome, count - (this.#counted.get(outcome) ?? 0));
        attributes[`${ATTR.JOB_OUTCOME_PREFIX}${outcome}`] = count;
      }
      if (typeof summary.rows === 'number') attributes[ATTR.JOB_ROW_COUNT] = summary.rows;
      if (typeof summary.unfinished === 'number') attributes[`${ATTR.JOB_OUTCOME_PREFIX}unfinished`] = summary.unfinished;
      attributes[ATTR.JOB_INTERRUPTED] = summary.interrupted === true;
    } else {
      for (const [outcome, count] of this.#counted) attributes[`${ATTR.JOB_OUTCOME_PREFIX}${outcome}`] = count;
    }
    attributes[ATTR.RAN] = failed ? ranOf(error, this.#requests) : 'yes';
    if (failed) attributes[ATTR.ERROR_TYPE] = errorType(error);
    this.#span.setAttributes(attributes);
    if (failed) this.#span.setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error) });
    this.#span.end();
  }
}

/** What the job span reads of a `GrantToManySummary`. */
interface GrantSummaryShape {
  rows?: unknown;
  counts?: Record<string, unknown>;
  unfinished?: unknown;
  interrupted?: unknown;
}
