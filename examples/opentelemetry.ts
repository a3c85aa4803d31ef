/**
 * Trace every call with OpenTelemetry: the NodeSDK with the SDK's instrumentation in its
 * `instrumentations` list, as a service registers it. Spans print to the console as a tree at the
 * end; with OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) set, they also go
 * to that OTLP/HTTP collector (e.g. http://localhost:4318 of a local Jaeger or Grafana Alloy).
 * Add `new UndiciInstrumentation()` (@opentelemetry/instrumentation-undici) to the list to see each
 * fetch under the request that sent it.
 *
 * Run: npx tsx examples/opentelemetry.ts   (the simulator; a real server with ADMIN_API_URL + ADMIN_API_KEY)
 *      OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 npx tsx examples/opentelemetry.ts
 */
import { context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, SimpleSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { AdminClientInstrumentation } from '../src/otel/index.js';
import { AdminClient, AdminApiError } from '../src/index.js';
import { createSimulator, DEMO_API_KEY, seedDemoSchool, startMockServer, type MockServer } from '../src/testing/index.js';
import { step } from './support/report.js';
import { SpanTreeExporter } from './support/span-tree.js';
import { connect } from './support/target.js';

// 1. OpenTelemetry first, before any call: the console tree always, OTLP when a collector is named.
const otlp = process.env.OTEL_EXPORTER_OTLP_ENDPOINT ?? process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
const spanProcessors: SpanProcessor[] = [new SimpleSpanProcessor({ exporter: new SpanTreeExporter() })];
// OTLPTraceExporter reads the endpoint (and headers) from the standard variables itself.
if (otlp !== undefined && otlp !== '') spanProcessors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter() }));
const sdk = new NodeSDK({ serviceName: 'school-admin-example', spanProcessors, instrumentations: [new AdminClientInstrumentation()] });
sdk.start();

// 2. Clients as always: nothing about telemetry in their options. Against the simulator, a server
// that allows 20 mutations per 2 s, a budget the client does not know: its bulk job meets 429s
// (as when another process spends the key), and the trace shows the pauses.
const target = await connect({ simulatorWindowMs: 2_000 });
const { school } = target;
const small = target.mode === 'simulator' ? await smallBudgetServer() : undefined;
const admin = small === undefined ? target.admin : new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: small.url });
const app = trace.getTracer('example-app');
try {
  const coupon = await admin.createCoupon({ name: 'Traced 10%', couponType: 'percentage', amount: 10, restricted: true });

  await step('Grant a coupon inside the app\'s own span ("handle signup")', async () => {
    const span = app.startSpan('handle signup');
    const result = await context.with(trace.setSpan(context.active(), span), () => admin.grantCoupon(coupon.id, { email: school.memberEmails[0] as string }));
    span.end();
    return { value: result, line: `created=${result.created}; its span is a child of "handle signup"` };
  });

  await step('Grant it to 60 members: one span for the job, 429 pauses as spans of their own', async () => {
    const members = school.memberEmails.slice(1, 61).map((email) => ({ email }));
    const summary = await admin.grantCouponToMany(coupon.id, members);
    return { value: summary, line: `${summary.counts.created} created in ${(summary.durationMs / 1000).toFixed(1)} s` };
  });

  await step('A call that fails: its span says error.type and whether it ran', async () => {
    const error = await admin.revokeCouponGrant('00000000-0000-4000-8000-000000000000').catch((caught: unknown) => caught);
    const ran = error instanceof AdminApiError ? error.ran : 'unknown';
    return { value: error, line: `${(error as Error).name}, ran=${ran}` };
  });
} finally {
  await small?.close();
  await target.close();
  // Flushes the exporters: the console tree prints now, the OTLP batch is sent.
  await sdk.shutdown();
}

/** The demo school served with a budget of 20 mutations per 2 s. */
async function smallBudgetServer(): Promise<MockServer> {
  const simulator = createSimulator({ limits: { mutations: { limit: 20, windowMs: 2_000 }, queries: { limit: 600, windowMs: 60_000 } } });
  seedDemoSchool(simulator);
  return startMockServer({ simulator });
}
