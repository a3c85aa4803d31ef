import { ValueType, type Attributes, type Counter, type Histogram, type Meter, type ObservableCallback, type ObservableCounter, type ObservableUpDownCounter } from '@opentelemetry/api';
import { ATTR, METRIC, SECONDS_BUCKETS } from './semantic.js';

/** One attribute set of a count and its value. */
export interface Tally {
  readonly attributes: Attributes;
  value: number;
}

/**
 * Counts kept in plain numbers and read by the meter when it collects: a call's waiting and a
 * row done change a number, where an `add()` per change would hash its attributes each time (the
 * largest cost of the instrumentation per call in a profile of a bulk job). They outlive a change
 * of meter provider: the new provider's instruments read the same counts.
 */
export class Tallies {
  /** Calls waiting to send their next request, by lane and budget. */
  readonly waiting = new Map<string, Tally>();
  /** Rows of jobs done, by job and outcome (only ever grows: a cumulative counter). */
  readonly jobRows = new Map<string, Tally>();

  /** The count of waiting calls of `lane` and `operationType` (a call adds 1 while it waits). */
  waitingOf(lane: string, operationType: string): Tally {
    return tally(this.waiting, `${lane} ${operationType}`, () => ({ [ATTR.LANE]: lane, [ATTR.OPERATION_TYPE]: operationType }));
  }

  addJobRows(count: number, method: string, outcome: string): void {
    tally(this.jobRows, `${method} ${outcome}`, () => ({ [ATTR.METHOD]: method, [ATTR.ROW_OUTCOME]: outcome })).value += count;
  }
}

function tally(tallies: Map<string, Tally>, key: string, attributes: () => Attributes): Tally {
  let found = tallies.get(key);
  if (found === undefined) {
    found = { attributes: attributes(), value: 0 };
    tallies.set(key, found);
  }
  return found;
}

/** The instruments the instrumentation records with, made from one meter. */
export class Instruments {
  /** Each call, first permit to last answer (or failure), by operation and outcome. */
  readonly operationDuration: Histogram;
  /** Each wait in the queue for a permit, by lane and reason. */
  readonly permitWaitTime: Histogram;
  /** Each HTTP 429. */
  readonly rateLimitedResponses: Counter;
  readonly #waitingCalls: ObservableUpDownCounter;
  readonly #jobRows: ObservableCounter;
  readonly #observeWaiting: ObservableCallback;
  readonly #observeJobRows: ObservableCallback;

  constructor(meter: Meter, tallies: Tallies) {
    const seconds = { unit: 's', valueType: ValueType.DOUBLE, advice: { explicitBucketBoundaries: [...SECONDS_BUCKETS] } };
    this.operationDuration = meter.createHistogram(METRIC.OPERATION_DURATION, { ...seconds, description: 'Duration of school-admin-sdk calls, from asking for the first permit to the last answer, over all attempts.' });
    this.permitWaitTime = meter.createHistogram(METRIC.PERMIT_WAIT_TIME, { ...seconds, description: 'Time a request waited in the queue for its rate-limit permit (after a 429: the pause).' });
    this.rateLimitedResponses = meter.createCounter(METRIC.RATE_LIMITED_RESPONSES, { unit: '{response}', valueType: ValueType.INT, description: 'HTTP 429 answers the client got.' });
    this.#waitingCalls = meter.createObservableUpDownCounter(METRIC.WAITING_CALLS, { unit: '{call}', valueType: ValueType.INT, description: 'Calls waiting to send their next request: for a permit, a 429 pause or a retry backoff.' });
    this.#jobRows = meter.createObservableCounter(METRIC.JOB_ROWS, { unit: '{row}', valueType: ValueType.INT, description: 'Rows of bulk jobs (grantCouponToMany, chunked bulk calls) done, by outcome.' });
    this.#observeWaiting = (result) => {
      for (const { attributes, value } of tallies.waiting.values()) result.observe(value, attributes);
    };
    this.#observeJobRows = (result) => {
      for (const { attributes, value } of tallies.jobRows.values()) result.observe(value, attributes);
    };
    this.#waitingCalls.addCallback(this.#observeWaiting);
    this.#jobRows.addCallback(this.#observeJobRows);
  }

  /** Stops the observable instruments reading the counts (their meter was replaced). */
  dispose(): void {
    this.#waitingCalls.removeCallback(this.#observeWaiting);
    this.#jobRows.removeCallback(this.#observeJobRows);
  }
}
