import type { RateLimitedOperationType } from '../../rate-limit/bucket-name.js';
import type { Priority } from '../../rate-limit/priority.js';
import type { ClientEventMap } from './client-events.js';

/**
 * The global slot an instrumentation fills (`school-admin-sdk/otel` does, when enabled). The core
 * reads it at every call, never keeps it: a client made before the instrumentation was registered
 * is seen, and a copy of the SDK loaded twice (ESM and CommonJS, two installed versions) announces
 * to the same instrumentation. `v1` names this contract; a change of it takes a new name.
 */
const SLOT = Symbol.for('school-admin-sdk.telemetry.v1');

/** What a call tells an instrumentation when it starts: never the key or the variables. */
export interface TelemetryCall {
  /** The SDK method (`'grantCoupon'`) or `'request'`. */
  operation: string;
  callId: string;
  /** The document's text, as sent in `query` (no variables in it). */
  document: string;
  /** `request()`'s `operationName`. */
  operationName: string | undefined;
  /** The budget it counts against. */
  operationType: RateLimitedOperationType;
  /** The lane it waits in. */
  priority: Priority;
  /** `${baseUrl}/admin/graphql` (never with credentials: `baseUrl` refuses them). */
  url: string;
}

/** What a job (a chunked bulk call, `grantCouponToMany`) tells an instrumentation when it starts. */
export interface TelemetryJob {
  /** The SDK method: `'grantCouponToMany'`, `'bulkCreateMeetings'`, `'bulkCancelMeetings'`. */
  operation: string;
  /** Rows in the input, when known (a stream of members has no length). */
  rows: number | undefined;
}

/**
 * What an instrumentation puts in the slot. Each wrapper must call its function exactly once,
 * synchronously, and return its promise's outcome unchanged (the span ends beside it): the call's
 * work then runs in the instrumentation's context, so the spans of other instrumentations (a
 * fetch's) nest under the call's. None may throw into a call.
 */
export interface Telemetry {
  /** Runs one call (all its attempts) inside its span's context. */
  call<T>(call: TelemetryCall, run: () => Promise<T>): Promise<T>;
  /** Sends one attempt inside its span's context, with the headers that carry it (`traceparent`). */
  attempt<T>(callId: string, attempt: number, send: (headers: Record<string, string>) => Promise<T>): Promise<T>;
  /** Runs a job inside its span's context; its calls are the job's. */
  job<T>(job: TelemetryJob, run: () => Promise<T>): Promise<T>;
  /** Every event of every client (the same objects listeners get). */
  event<K extends keyof ClientEventMap>(name: K, event: ClientEventMap[K]): void;
}

/** The instrumentation in the slot now, if any. */
export function telemetry(): Telemetry | undefined {
  return (globalThis as { [SLOT]?: Telemetry })[SLOT];
}

/**
 * Puts `instrumentation` in the slot (undefined empties it), unless another one holds it and
 * `only` is not that one (so disabling one instrumentation never removes another's).
 */
export function setTelemetry(instrumentation: Telemetry | undefined, only?: Telemetry): void {
  const global = globalThis as { [SLOT]?: Telemetry | undefined };
  if (only === undefined || global[SLOT] === only) global[SLOT] = instrumentation;
}
