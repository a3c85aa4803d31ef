import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { AggregationTemporality, InMemoryMetricExporter, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_ERROR_TYPE, ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_REQUEST_RESEND_COUNT, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT, ATTR_URL_FULL } from '@opentelemetry/semantic-conventions';
import { ATTR_GRAPHQL_OPERATION_NAME, ATTR_GRAPHQL_OPERATION_TYPE } from '@opentelemetry/semantic-conventions/incubating';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { telemetry } from '../../src/client/events/telemetry.js';
import { AdminClientInstrumentation } from '../../src/otel/index.js';
import { ATTR as SCHOOL_ADMIN_ATTRIBUTES } from '../../src/otel/semantic.js';
import { DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';
import { AdminClient, DEMO_API_KEY_FOR_TESTS } from './support/clients.js';
import { startRecordingServer, type RecordingServer } from './support/recording-server.js';

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server?.close();
});
afterEach(() => {
  // Nothing of one test may watch the next (or another file of this worker).
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
  expect(telemetry()).toBeUndefined();
});

const grant = (admin: AdminClient, member: number) => admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(member) });
const client = () => new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: server.url });
const memoryTracing = () => {
  const spans = new InMemorySpanExporter();
  return { spans, provider: new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] }) };
};

describe('turning it on like any instrumentation', () => {
  it('the NodeSDK\'s instrumentations list: its tracer and meter providers get the spans and metrics', async () => {
    const spans = new InMemorySpanExporter();
    const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
    const instrumentation = new AdminClientInstrumentation();
    const sdk = new NodeSDK({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })], metricReaders: [reader], instrumentations: [instrumentation], autoDetectResources: false });
    sdk.start();
    try {
      await grant(client(), 20);
      await reader.forceFlush();
      expect(spans.getFinishedSpans().map((span) => span.name)).toEqual(['POST', 'mutation CreateCouponGrant']);
      const names = metricExporter.getMetrics().at(-1)?.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name));
      expect(names).toEqual(expect.arrayContaining(['school_admin.client.operation.duration', 'school_admin.client.waiting_calls']));
    } finally {
      await sdk.shutdown();
      instrumentation.disable();
    }
  });

  it('registerInstrumentations with the providers given uses them, not the global ones; its unload disables it', async () => {
    const given = memoryTracing();
    const global = memoryTracing();
    trace.setGlobalTracerProvider(global.provider);
    const unload = registerInstrumentations({ instrumentations: [new AdminClientInstrumentation()], tracerProvider: given.provider });
    await grant(client(), 21);
    unload();
    await grant(client(), 22);
    expect(given.spans.getFinishedSpans()).toHaveLength(2);
    expect(global.spans.getFinishedSpans()).toEqual([]);
  });

  it('by default the global providers, the tracer one registered after the instrumentation included', async () => {
    const instrumentation = new AdminClientInstrumentation();
    const global = memoryTracing();
    trace.setGlobalTracerProvider(global.provider);
    await grant(client(), 23);
    instrumentation.disable();
    expect(global.spans.getFinishedSpans().map((span) => span.name)).toEqual(['POST', 'mutation CreateCouponGrant']);
  });

  it('disable() stops it, enable() starts it again; { enabled: false } waits for registerInstrumentations', async () => {
    const { spans, provider } = memoryTracing();
    const instrumentation = new AdminClientInstrumentation({ enabled: false });
    instrumentation.setTracerProvider(provider);
    await grant(client(), 24);
    expect(spans.getFinishedSpans()).toEqual([]);
    const unload = registerInstrumentations({ instrumentations: [instrumentation], tracerProvider: provider });
    await grant(client(), 25);
    instrumentation.disable();
    await grant(client(), 26);
    instrumentation.enable();
    await grant(client(), 27);
    unload();
    expect(spans.getFinishedSpans().filter((span) => span.name !== 'POST')).toHaveLength(2);
  });

  it('disabling one instrumentation leaves another, enabled since, in place', () => {
    const first = new AdminClientInstrumentation();
    const second = new AdminClientInstrumentation();
    first.disable();
    expect(telemetry()).toBeDefined();
    second.disable();
    expect(telemetry()).toBeUndefined();
  });
});

describe('what a user may pass wrongly: a clear InvalidInputError, nothing enabled by half', () => {
  it.each([
    ['a Map for the tracer provider', (instrumentation: AdminClientInstrumentation) => instrumentation.setTracerProvider(new Map() as never), 'tracerProvider'],
    ['undefined for the tracer provider', (instrumentation: AdminClientInstrumentation) => instrumentation.setTracerProvider(undefined as never), 'tracerProvider'],
    ['a tracer for the meter provider', (instrumentation: AdminClientInstrumentation) => instrumentation.setMeterProvider(trace.getTracer('x') as never), 'meterProvider'],
    ['a string config', (instrumentation: AdminClientInstrumentation) => instrumentation.setConfig('on' as never), 'config'],
    ['a Map config (no own keys to refuse)', (instrumentation: AdminClientInstrumentation) => instrumentation.setConfig(new Map([['enabled', true]]) as never), 'config'],
    ['enabled: "yes"', (instrumentation: AdminClientInstrumentation) => instrumentation.setConfig({ enabled: 'yes' as never }), 'enabled'],
    ['an unknown option', (instrumentation: AdminClientInstrumentation) => instrumentation.setConfig({ enabeld: true } as never), 'enabeld'],
  ])('%s', (_case, act, field) => {
    const instrumentation = new AdminClientInstrumentation({ enabled: false });
    expect(() => act(instrumentation)).toThrow(expect.objectContaining({ name: 'InvalidInputError', field, message: expect.stringMatching(/^Failed to /) }));
  });

  it('a bad config to the constructor throws before anything is enabled', () => {
    expect(() => new AdminClientInstrumentation(null as never)).toThrow(/Failed to create the instrumentation: pass an object/);
    expect(telemetry()).toBeUndefined();
  });

  it('a propagator that throws, or injects a header a request cannot carry: the call goes on, without it', async () => {
    const { spans, provider } = memoryTracing();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator({
      inject: (_context, carrier: Record<string, string>) => Object.assign(carrier, { 'x-bad': 'line\nbreak', 'x-good': 'ok', 'bad name': 'x' }),
      extract: (active) => active,
      fields: () => ['x-bad', 'x-good'],
    });
    const unload = registerInstrumentations({ instrumentations: [new AdminClientInstrumentation()], tracerProvider: provider });
    server.headers.length = 0;
    await grant(client(), 28);
    expect(server.headers.at(-1)).toMatchObject({ 'x-good': 'ok' });
    expect(server.headers.at(-1)?.['x-bad']).toBeUndefined();
    propagation.setGlobalPropagator({ inject: () => { throw new Error('propagator bug'); }, extract: (active) => active, fields: () => [] });
    await grant(client(), 29);
    unload();
    expect(spans.getFinishedSpans().filter((span) => span.name !== 'POST')).toHaveLength(2);
  });

  it('a tracer provider already shut down: calls succeed, spans go nowhere', async () => {
    const { spans, provider } = memoryTracing();
    const unload = registerInstrumentations({ instrumentations: [new AdminClientInstrumentation()], tracerProvider: provider });
    await provider.shutdown();
    await expect(grant(client(), 30)).resolves.toMatchObject({ grant: expect.any(Object) });
    unload();
    expect(spans.getFinishedSpans()).toEqual([]);
  });
});

describe('the names are the OpenTelemetry semantic conventions\' where they have one', () => {
  it('GraphQL, HTTP client and error.type attributes match @opentelemetry/semantic-conventions', () => {
    expect(SCHOOL_ADMIN_ATTRIBUTES).toMatchObject({
      GRAPHQL_OPERATION_TYPE: ATTR_GRAPHQL_OPERATION_TYPE,
      GRAPHQL_OPERATION_NAME: ATTR_GRAPHQL_OPERATION_NAME,
      HTTP_REQUEST_METHOD: ATTR_HTTP_REQUEST_METHOD,
      HTTP_RESPONSE_STATUS_CODE: ATTR_HTTP_RESPONSE_STATUS_CODE,
      HTTP_REQUEST_RESEND_COUNT: ATTR_HTTP_REQUEST_RESEND_COUNT,
      SERVER_ADDRESS: ATTR_SERVER_ADDRESS,
      SERVER_PORT: ATTR_SERVER_PORT,
      URL_FULL: ATTR_URL_FULL,
      ERROR_TYPE: ATTR_ERROR_TYPE,
    });
    const own = Object.entries(SCHOOL_ADMIN_ATTRIBUTES).filter(([name]) => !/^(GRAPHQL|HTTP|SERVER|URL|ERROR)_/.test(name));
    expect(own.filter(([, value]) => !value.startsWith('school_admin.'))).toEqual([]);
  });
});
