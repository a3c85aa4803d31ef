import { context, createContextKey, diag, propagation, type Attributes, type Context } from '@opentelemetry/api';
import type { ClientEventMap, RateLimitedEvent, RequestEvent, RetryEvent } from '../client/events/client-events.js';
import type { Telemetry, TelemetryCall, TelemetryJob } from '../client/events/telemetry.js';
import { CallTrace, type Recorder } from './call-trace.js';
import { JobTrace } from './job-trace.js';
import { CallShapes } from './call-shapes.js';
import type { Tallies } from './instruments.js';
import { ATTR } from './semantic.js';
import { fetchCarriesContext } from './undici-channel.js';

/** Where a job's trace rides in the OpenTelemetry context, so its calls find it. */
const JOB_KEY = createContextKey('school-admin-sdk job');

/** A header value an HTTP request can carry (what `Headers` accepts without throwing). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * What the instrumentation puts in the core's telemetry slot (see `client/events/telemetry.ts`):
 * it starts a trace per call and per job, runs their work in their spans' contexts, and hands each
 * event to the trace of its call. A failure of its own is logged through the OpenTelemetry
 * diagnostics and never reaches a call: the call then runs as if nobody watched.
 */
export class Observer implements Telemetry {
  readonly #recorder: () => Recorder;
  readonly #shapes: CallShapes;
  /** The calls under way, by call id (their events find them here). */
  readonly #calls = new Map<string, CallTrace>();
  /** `server.address`, `server.port`, `url.full` by endpoint. */
  readonly #servers = new Map<string, Attributes>();
  /** True while an instrumentation of Node's fetch writes the trace headers itself. */
  readonly #fetchCarries = fetchCarriesContext();
  /** The headers that carry an attempt's context: none when the fetch instrumentation writes them. */
  readonly #carried = (active: Context): Record<string, string> => (this.#fetchCarries() ? {} : carried(active));

  /**
   * @param recorder - the tracer and instruments now (a provider set later replaces them)
   * @param tallies - the counts the instruments read (the same whatever the provider)
   */
  constructor(recorder: () => Recorder, tallies: Tallies) {
    this.#recorder = recorder;
    this.#shapes = new CallShapes(tallies);
  }

  call<T>(call: TelemetryCall, run: () => Promise<T>): Promise<T> {
    let traced: CallTrace;
    try {
      const parent = context.active();
      const job = parent.getValue(JOB_KEY) as JobTrace | undefined;
      traced = new CallTrace(this.#recorder(), call, this.#shapes.of(call), this.#server(call.url), parent, job);
      this.#calls.set(call.callId, traced);
    } catch (error) {
      return unobserved(error, run);
    }
    let running: Promise<T>;
    try {
      running = context.with(traced.context, run);
    } catch (error) {
      this.#ended(call.callId, traced, true, error, undefined);
      throw error;
    }
    running.then(
      (result) => this.#ended(call.callId, traced, false, undefined, result),
      (error: unknown) => this.#ended(call.callId, traced, true, error, undefined),
    );
    return running;
  }

  #ended(callId: string, traced: CallTrace, failed: boolean, error: unknown, result: unknown): void {
    this.#calls.delete(callId);
    guarded(() => traced.end(failed, error, result));
  }

  attempt<T>(callId: string, attempt: number, send: (headers: Record<string, string>) => Promise<T>): Promise<T> {
    const traced = this.#calls.get(callId);
    // A call that started before this instrumentation was enabled: sent as it is.
    if (traced === undefined) return send({});
    let sent: Promise<T> | undefined;
    try {
      return traced.attempt(attempt, (headers) => (sent = send(headers)), this.#carried);
    } catch (error) {
      // A failure before `send` ran sends without telemetry; one after it keeps what was sent.
      return sent ?? unobserved(error, () => send({}));
    }
  }

  job<T>(job: TelemetryJob, run: () => Promise<T>): Promise<T> {
    let traced: JobTrace;
    try {
      traced = new JobTrace(this.#recorder(), job, context.active());
    } catch (error) {
      return unobserved(error, run);
    }
    let running: Promise<T>;
    try {
      running = context.with(traced.context.setValue(JOB_KEY, traced), run);
    } catch (error) {
      guarded(() => traced.end(true, error, undefined));
      throw error;
    }
    running.then(
      (result) => guarded(() => traced.end(false, undefined, result)),
      (error: unknown) => guarded(() => traced.end(true, error, undefined)),
    );
    return running;
  }

  event<K extends keyof ClientEventMap>(name: K, event: ClientEventMap[K]): void {
    const traced = this.#calls.get(event.callId);
    if (traced === undefined) return;
    guarded(() => {
      if (name === 'request') traced.onRequest(event as RequestEvent);
      else if (name === 'rateLimited') traced.onRateLimited(event as RateLimitedEvent);
      else if (name === 'retry') traced.onRetry(event as RetryEvent);
    });
  }

  #server(url: string): Attributes {
    let server = this.#servers.get(url);
    if (server === undefined) {
      const { hostname, port, protocol } = new URL(url);
      server = { [ATTR.SERVER_ADDRESS]: hostname, [ATTR.SERVER_PORT]: port === '' ? (protocol === 'https:' ? 443 : 80) : Number(port), [ATTR.URL_FULL]: url };
      if (this.#servers.size >= 64) this.#servers.clear();
      this.#servers.set(url, server);
    }
    return server;
  }
}

/**
 * The headers that carry `active` to the server, from the app's propagator (W3C `traceparent` and
 * `tracestate` with the SDK's defaults). Only names and values a request can carry are kept: a
 * propagator's bad value must not fail the call.
 */
function carried(active: Context): Record<string, string> {
  const headers: Record<string, string> = {};
  try {
    propagation.inject(active, headers);
  } catch (error) {
    diag.error('school-admin-sdk/otel: the propagator failed; the request goes without trace headers', error);
    return {};
  }
  for (const name in headers) {
    const value: unknown = headers[name];
    if (typeof value !== 'string' || !HEADER_NAME.test(name) || !HEADER_VALUE.test(value)) delete headers[name];
  }
  return headers;
}

/** Runs `work` as if no instrumentation were there, after saying why through the OpenTelemetry diagnostics. */
function unobserved<T>(error: unknown, work: () => Promise<T>): Promise<T> {
  diag.error('school-admin-sdk/otel: could not trace a call; it runs untraced', error);
  return work();
}

function guarded(work: () => void): void {
  try {
    work();
  } catch (error) {
    diag.error('school-admin-sdk/otel: could not record a call', error);
  }
}
