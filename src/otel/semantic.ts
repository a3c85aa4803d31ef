/**
 * The names the instrumentation records under: the OpenTelemetry semantic conventions' where they
 * have one (GraphQL, HTTP client spans, `error.type`), `school_admin.*` for what only this SDK
 * knows. Written out rather than imported from @opentelemetry/semantic-conventions, which would be
 * one more dependency for a dozen stable strings (test/otel checks them against that package).
 */
export const ATTR = Object.freeze({
  // Semantic conventions.
  GRAPHQL_OPERATION_TYPE: 'graphql.operation.type',
  GRAPHQL_OPERATION_NAME: 'graphql.operation.name',
  HTTP_REQUEST_METHOD: 'http.request.method',
  HTTP_RESPONSE_STATUS_CODE: 'http.response.status_code',
  HTTP_REQUEST_RESEND_COUNT: 'http.request.resend_count',
  SERVER_ADDRESS: 'server.address',
  SERVER_PORT: 'server.port',
  URL_FULL: 'url.full',
  ERROR_TYPE: 'error.type',
  // This SDK's own.
  METHOD: 'school_admin.method',
  CALL_ID: 'school_admin.call_id',
  LANE: 'school_admin.lane',
  OPERATION_TYPE: 'school_admin.operation_type',
  ATTEMPTS: 'school_admin.attempts',
  RAN: 'school_admin.ran',
  ATTEMPT: 'school_admin.attempt',
  RETRIES_LEFT: 'school_admin.retries_left',
  WAIT_REASON: 'school_admin.wait.reason',
  WAIT_MS: 'school_admin.wait.duration_ms',
  BUDGET_LIMIT: 'school_admin.budget.limit',
  BUDGET_WINDOW_MS: 'school_admin.budget.window_ms',
  BUDGET_SOURCE: 'school_admin.budget.source',
  PAUSE_MS: 'school_admin.rate_limit.pause_ms',
  RATE_LIMIT: 'school_admin.rate_limit.limit',
  RATE_LIMITED_COUNT: 'school_admin.rate_limit.count',
  JOB_ROW_COUNT: 'school_admin.job.row_count',
  JOB_CHUNK_COUNT: 'school_admin.job.chunk_count',
  JOB_REQUEST_COUNT: 'school_admin.job.request_count',
  JOB_RATE_LIMITED_COUNT: 'school_admin.job.rate_limited_count',
  JOB_WAITED_REQUEST_COUNT: 'school_admin.job.waited_request_count',
  JOB_INTERRUPTED: 'school_admin.job.interrupted',
  /** `school_admin.job.outcome.<outcome>`: rows per outcome. */
  JOB_OUTCOME_PREFIX: 'school_admin.job.outcome.',
  ROW_OUTCOME: 'school_admin.row.outcome',
});

/** Span event names (on a call's span). */
export const EVENT = Object.freeze({
  RATE_LIMITED: 'school_admin.rate_limited',
  RETRY: 'school_admin.retry',
});

/** Metric instrument names and units (UCUM; `{...}` annotations for counts). */
export const METRIC = Object.freeze({
  OPERATION_DURATION: 'school_admin.client.operation.duration',
  PERMIT_WAIT_TIME: 'school_admin.client.permit.wait_time',
  RATE_LIMITED_RESPONSES: 'school_admin.client.rate_limited_responses',
  WAITING_CALLS: 'school_admin.client.waiting_calls',
  JOB_ROWS: 'school_admin.client.job.rows',
});

/** The name of the tracer and meter (the instrumentation scope). */
export const SCOPE_NAME = 'school-admin-sdk';

/**
 * Histogram buckets in seconds: the HTTP conventions' advice, then up to two minutes, since a
 * permit may be waited for a whole window (a minute by default) and 429 pauses add up.
 */
export const SECONDS_BUCKETS = Object.freeze([0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 30, 60, 120]);
