import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, CodedError, DEMO_API_KEY_FOR_TESTS } from './support/clients.js';
import { childrenOf, parentOf, spansNamed, startOtel, type OtelHarness } from './support/otel-harness.js';
import { startRecordingServer, type RecordingServer } from './support/recording-server.js';
import { DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';
import { refusedPort } from '../support/refused-port.js';

let otel: OtelHarness;
let server: RecordingServer;

beforeAll(async () => {
  // The client is made before the instrumentation is registered: it must be seen all the same.
  server = await startRecordingServer();
  early = new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: server.url });
  otel = startOtel();
});
let early: AdminClient;

afterEach(() => otel.reset());

afterAll(async () => {
  await otel?.stop();
  await server?.close();
});

const grant = (admin: AdminClient, member = 3) => admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(member) });

describe('one INTERNAL span per call, named as the GraphQL conventions direct, one CLIENT span per HTTP attempt under it', () => {
  it('a client made before registerInstrumentations is traced: "mutation CreateCouponGrant" with the operation, the SDK method, the lane and whether it ran', async () => {
    await grant(early);
    const spans = otel.spans.getFinishedSpans();
    const [call] = spansNamed(spans, 'mutation CreateCouponGrant');
    expect(call?.kind).toBe(SpanKind.INTERNAL);
    expect(call?.attributes).toMatchObject({
      'graphql.operation.type': 'mutation',
      'graphql.operation.name': 'CreateCouponGrant',
      'school_admin.method': 'grantCoupon',
      'school_admin.lane': 'interactive',
      'school_admin.operation_type': 'mutations',
      'school_admin.attempts': 1,
      'school_admin.ran': 'yes',
    });
    expect(call?.attributes['school_admin.call_id']).toMatch(/^call_/);
    expect(call?.status.code).toBe(SpanStatusCode.UNSET);
    const [attempt] = childrenOf(spans, call!);
    expect(attempt).toMatchObject({ name: 'POST', kind: SpanKind.CLIENT });
    const port = Number(new URL(server.url).port);
    expect(attempt?.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': port,
      'url.full': `${server.url}/admin/graphql`,
      'http.response.status_code': 200,
      'school_admin.attempt': 1,
    });
  });

  it('the call span is a child of the caller\'s active span', async () => {
    const tracer = otel.tracerProvider.getTracer('app');
    const parent = tracer.startSpan('handle request');
    await context.with(trace.setSpan(context.active(), parent), () => grant(early, 4));
    parent.end();
    const [call] = spansNamed(otel.spans.getFinishedSpans(), 'mutation CreateCouponGrant');
    expect(call?.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(parentOf(call!)).toBe(parent.spanContext().spanId);
  });

  it('request(): the type and name come from the document the caller wrote, the one operationName selects', async () => {
    await early.request('query A { __typename } query B { __typename }', undefined, { operationName: 'B' });
    await early.request('{ __typename }');
    const names = otel.spans.getFinishedSpans().filter((span) => span.kind === SpanKind.INTERNAL).map((span) => [span.name, span.attributes['graphql.operation.name'], span.attributes['school_admin.method']]);
    expect(names).toEqual([
      ['query B', 'B', 'request'],
      ['query', undefined, 'request'],
    ]);
  });
});

describe('a failed call: status error, error.type (the code or the class) and ran, as on the error', () => {
  it('a coded error: error.type is its code, ran "no", the HTTP attempt itself succeeded', async () => {
    const error = await early.revokeCouponGrant('00000000-0000-4000-8000-000000000000').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CodedError);
    const spans = otel.spans.getFinishedSpans();
    const [call] = spansNamed(spans, 'mutation RevokeCouponGrant');
    expect(call?.status).toEqual({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    expect(call?.attributes).toMatchObject({ 'error.type': 'COUPON-004', 'school_admin.ran': (error as CodedError).ran });
    expect((error as CodedError).ran).toBe('no');
    expect(childrenOf(spans, call!)[0]?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a refused connection: error.type NetworkError on the call and on each attempt, ran "no", resend counts 1 and 2 on the retries', async () => {
    const refused = new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: `http://127.0.0.1:${await refusedPort()}`, maxRetries: 2, retryBaseDelayMs: 1, maxRetryDelayMs: 2 });
    await expect(grant(refused)).rejects.toMatchObject({ name: 'NetworkError', ran: 'no' });
    const spans = otel.spans.getFinishedSpans();
    const [call] = spansNamed(spans, 'mutation CreateCouponGrant');
    expect(call?.attributes).toMatchObject({ 'error.type': 'NetworkError', 'school_admin.ran': 'no', 'school_admin.attempts': 3 });
    const attempts = childrenOf(spans, call!).filter((span) => span.kind === SpanKind.CLIENT);
    expect(attempts.map((span) => [span.attributes['http.request.resend_count'], span.attributes['error.type'], span.status.code])).toEqual([
      [undefined, 'NetworkError', SpanStatusCode.ERROR],
      [1, 'NetworkError', SpanStatusCode.ERROR],
      [2, 'NetworkError', SpanStatusCode.ERROR],
    ]);
    expect(call?.events.map((event) => [event.name, event.attributes?.['error.type']])).toEqual([
      ['school_admin.retry', 'NetworkError'],
      ['school_admin.retry', 'NetworkError'],
    ]);
    expect(spansNamed(childrenOf(spans, call!), 'retry backoff')).toHaveLength(2);
  });
});

describe('context: traceparent (and tracestate) go with every request while a span is active', () => {
  it('the server gets the attempt span\'s context, the caller\'s tracestate and baggage; the key only in its own header', async () => {
    server.headers.length = 0;
    const parent = otel.tracerProvider.getTracer('app').startSpan('job');
    const withState = trace.setSpan(context.active(), parent);
    const carrier = { traceparent: `00-${parent.spanContext().traceId}-${parent.spanContext().spanId}-01`, tracestate: 'vendor=abc' };
    const extracted = propagation.extract(withState, carrier);
    const active = propagation.setBaggage(extracted, propagation.createBaggage({ tenant: { value: 'school-7' } }));
    await context.with(active, () => grant(early, 5));
    parent.end();
    const [call] = spansNamed(otel.spans.getFinishedSpans(), 'mutation CreateCouponGrant');
    const [attempt] = childrenOf(otel.spans.getFinishedSpans(), call!);
    const sent = server.headers.at(-1)!;
    expect(sent['traceparent']).toBe(`00-${attempt!.spanContext().traceId}-${attempt!.spanContext().spanId}-01`);
    expect(sent['tracestate']).toBe('vendor=abc');
    expect(sent['baggage']).toBe('tenant=school-7');
    expect(Object.entries(sent).filter(([, value]) => String(value).includes(DEMO_API_KEY_FOR_TESTS)).map(([name]) => name)).toEqual(['x-service-api-key']);
  });

  it('without an active span nothing but the call\'s own trace goes: a request still carries the SDK span\'s traceparent', async () => {
    server.headers.length = 0;
    await grant(early, 6);
    expect(server.headers.at(-1)?.['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });
});

describe('per client: telemetry: false', () => {
  it('a client made with telemetry: false records nothing and sends no traceparent; a client derived with telemetry: true records its own calls', async () => {
    server.headers.length = 0;
    const quiet = new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: server.url, telemetry: false });
    await grant(quiet, 7);
    expect(otel.spans.getFinishedSpans()).toEqual([]);
    expect(server.headers.at(-1)?.['traceparent']).toBeUndefined();
    await grant(quiet.withOptions({ telemetry: true }), 8);
    expect(spansNamed(otel.spans.getFinishedSpans(), 'mutation CreateCouponGrant')).toHaveLength(1);
  });

  it('refuses a telemetry option that is not true or false, naming it', () => {
    expect(() => new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: server.url, telemetry: 'off' as never })).toThrow(/telemetry must be true or false/);
    expect(() => early.withOptions({ telemetry: 0 as never })).toThrow(expect.objectContaining({ name: 'InvalidInputError', field: 'telemetry' }));
  });
});
