import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, MemoryPermitStore } from '../../src/index.js';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';
import { startOtel, type OtelHarness } from './support/otel-harness.js';
import { startRecordingServer, type RecordingServer } from './support/recording-server.js';

let otel: OtelHarness;
let server: RecordingServer;

beforeAll(async () => {
  server = await startRecordingServer({ limits: { mutations: { limit: 4, windowMs: 1_000 }, queries: { limit: 600, windowMs: 60_000 } } });
  otel = startOtel();
});

afterAll(async () => {
  await otel?.stop();
  await server?.close();
});

/** A server that answers every request with a GraphQL error quoting the whole request: headers (the key) and body (the variables). */
const echoing: typeof fetch = async (_input, init) => {
  const quoted = JSON.stringify({ headers: Object.fromEntries(new Headers(init?.headers)), body: init?.body });
  return new Response(JSON.stringify({ data: null, errors: [{ message: `cannot do that: ${quoted}`, path: ['createCouponGrant'] }] }), { status: 500, headers: { 'content-type': 'application/json', 'x-echo': quoted } });
};

describe('the API key never appears in any attribute, event, metric or header but its own', () => {
  it('successes, 429s, a job, a coded error, an error quoting the whole request (key and emails), a refused connection: not in one span, event, status or metric', { timeout: 60_000 }, async () => {
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { store: new MemoryPermitStore() } });
    const emails = Array.from({ length: 10 }, (_, index) => demoMemberEmail(300 + index));
    await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, emails.map((email) => ({ email })));
    await Promise.all(emails.slice(0, 3).map((email) => admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email })));
    await admin.revokeCouponGrant('00000000-0000-4000-8000-000000000000').catch(() => undefined);
    const echo = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, fetch: echoing, limits: false, maxRetries: 0 });
    const echoed = await echo.grantCoupon(DEMO_IDS.restrictedCouponId, { email: emails[0] as string }).catch((error: unknown) => error);
    expect(echoed).toMatchObject({ name: 'HttpError', status: 500 });
    const refused = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: 'http://127.0.0.1:9', limits: false, maxRetries: 0 });
    await refused.grantCoupon(DEMO_IDS.restrictedCouponId, { email: emails[1] as string }).catch(() => undefined);

    const spans = otel.spans.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(10);
    expect(spans.some((span) => span.events.some((event) => event.name === 'school_admin.rate_limited')) || spans.some((span) => span.name === 'rate limit pause')).toBe(true);
    const exported = JSON.stringify(
      spans.map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status, links: span.links, resource: span.resource.attributes })),
    );
    expect(exported).toContain('cannot do that'); // the echoing error's message is in a status, redacted
    expect(exported).not.toContain(DEMO_API_KEY);
    for (const email of emails) expect(exported).not.toContain(email);
    const metrics = JSON.stringify([...(await otel.collect()).values()]);
    expect(metrics).not.toContain(DEMO_API_KEY);
    for (const email of emails) expect(metrics).not.toContain(email);
  });

  it('the headers the server got: the key in X-Service-API-Key only; traceparent beside it', () => {
    const carrying = server.headers.flatMap((headers) => Object.entries(headers).filter(([, value]) => String(value).includes(DEMO_API_KEY)).map(([name]) => name));
    expect(new Set(carrying)).toEqual(new Set(['x-service-api-key']));
    expect(server.headers.every((headers) => /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/.test(String(headers['traceparent'])))).toBe(true);
  });
});
