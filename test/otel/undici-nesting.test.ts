import { SpanKind } from '@opentelemetry/api';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, DEMO_API_KEY_FOR_TESTS } from './support/clients.js';
import { childrenOf, parentOf, spansNamed, startOtel, type OtelHarness } from './support/otel-harness.js';
import { startRecordingServer, type RecordingServer } from './support/recording-server.js';
import { DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';

let otel: OtelHarness;
let server: RecordingServer;
let undici: UndiciInstrumentation;

beforeAll(async () => {
  server = await startRecordingServer();
  undici = new UndiciInstrumentation();
  otel = startOtel({ extra: [undici] });
});

afterAll(async () => {
  undici?.disable();
  await otel?.stop();
  await server?.close();
});

describe('with @opentelemetry/instrumentation-undici too, its fetch spans sit under the call, not beside it', () => {
  it('the fetch span is the child of the attempt\'s CLIENT span, itself the child of the call span; the server gets one traceparent, the fetch span\'s', async () => {
    const admin = new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: server.url });
    server.rawHeaders.length = 0;
    await admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(9) });
    const spans = otel.spans.getFinishedSpans();
    const [call] = spansNamed(spans, 'mutation CreateCouponGrant');
    const [attempt] = childrenOf(spans, call!);
    const fetches = spans.filter((span) => span.instrumentationScope.name === '@opentelemetry/instrumentation-undici');
    expect(attempt).toMatchObject({ name: 'POST', kind: SpanKind.CLIENT });
    expect(fetches).toHaveLength(1);
    expect(parentOf(fetches[0]!)).toBe(attempt!.spanContext().spanId);
    expect(fetches[0]!.spanContext().traceId).toBe(call!.spanContext().traceId);
    // undici's instrumentation replaces the traceparent the SDK set: the server's parent is the fetch span.
    const raw = server.rawHeaders.at(-1)!;
    const traceparents = raw.filter((_, index) => index % 2 === 0 && raw[index]!.toLowerCase() === 'traceparent').length;
    expect(traceparents).toBe(1);
    expect(server.headers.at(-1)?.['traceparent']).toBe(`00-${fetches[0]!.spanContext().traceId}-${fetches[0]!.spanContext().spanId}-01`);
  });

  it('a retried call: each attempt has its own fetch span under it', async () => {
    otel.reset();
    let answered = 0;
    const flaky: typeof fetch = async (input, init) => {
      answered += 1;
      // The first attempt gets a 503 from the real server's path (a fetch that really goes out).
      const response = await fetch(input, init);
      return answered === 1 ? new Response('unavailable', { status: 503 }) : response;
    };
    const retried = new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: server.url, fetch: flaky, maxRetries: 2, retryBaseDelayMs: 1, maxRetryDelayMs: 2 });
    await retried.updateCoupon(DEMO_IDS.restrictedCouponId, { name: 'Alumni' });
    const spans = otel.spans.getFinishedSpans();
    const [call] = spansNamed(spans, 'mutation UpdateCoupon');
    const attempts = childrenOf(spans, call!).filter((span) => span.kind === SpanKind.CLIENT && span.instrumentationScope.name === 'school-admin-sdk');
    expect(attempts.map((span) => [span.attributes['http.request.resend_count'], span.attributes['http.response.status_code']])).toEqual([
      [undefined, 503],
      [1, 200],
    ]);
    for (const attempt of attempts) {
      expect(childrenOf(spans, attempt).map((span) => span.instrumentationScope.name)).toEqual(['@opentelemetry/instrumentation-undici']);
    }
  });
});
