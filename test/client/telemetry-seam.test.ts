import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, MemoryPermitStore, type RequestEvent } from '../../src/index.js';
import { ClientEvents } from '../../src/client/events/client-events.js';
import { setTelemetry, telemetry, type Telemetry, type TelemetryCall, type TelemetryJob } from '../../src/client/events/telemetry.js';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail, startMockServer } from '../../src/testing/index.js';

/** What a fake instrumentation saw, in order. */
type Seen = Array<['call', TelemetryCall] | ['attempt', string, number] | ['job', TelemetryJob] | ['event', string, unknown]>;

/** An instrumentation that records what the core announces and adds one header to each attempt. */
function recordingTelemetry(seen: Seen, headers: Record<string, string> = { 'x-trace-test': 'yes' }): Telemetry {
  return {
    call: (call, run) => {
      seen.push(['call', call]);
      return run();
    },
    attempt: (callId, attempt, send) => {
      seen.push(['attempt', callId, attempt]);
      return send(headers);
    },
    job: (job, run) => {
      seen.push(['job', job]);
      return run();
    },
    event: (name, event) => {
      seen.push(['event', name, event]);
    },
  };
}

afterEach(() => setTelemetry(undefined));

/** A fetch that answers one grant and keeps each request's headers. */
function grantFetch(received: Headers[]): typeof fetch {
  const body = JSON.stringify({ data: { createCouponGrant: { errors: null, created: true, grant: { id: 'g-1', status: 'granted', userName: 'A', userEmail: 'a@example.com', grantedByName: null, grantedAt: 1_800_000_000, redeemedAt: null, revokedAt: null } } } });
  return async (_input, init) => {
    received.push(new Headers(init?.headers));
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

const KEY = 'sk_live_seam_test_0123456789';

describe('the telemetry seam: a global slot the core reads at every call (school-admin-sdk/otel fills it)', () => {
  it('empty: no event is built for nobody (listening is false); filled, every client listens for it', () => {
    expect(telemetry()).toBeUndefined();
    const root = new ClientEvents();
    const derived = new ClientEvents(root);
    expect([root.listening('request'), derived.listening('waiting')]).toEqual([false, false]);
    setTelemetry(recordingTelemetry([]));
    expect([root.listening('request'), derived.listening('waiting')]).toEqual([true, true]);
  });

  it('a client made before the slot was filled announces its calls, attempts and events; never the key or the variables', async () => {
    const received: Headers[] = [];
    const admin = new AdminClient({ apiKey: KEY, baseUrl: 'https://school.example', fetch: grantFetch(received), limits: false });
    const seen: Seen = [];
    setTelemetry(recordingTelemetry(seen));
    await admin.grantCoupon('c-1', { email: 'ada@example.com' });
    const [call] = seen;
    expect(call).toEqual(['call', { operation: 'grantCoupon', callId: expect.stringMatching(/^call_/), document: expect.stringMatching(/^mutation CreateCouponGrant/), operationName: undefined, operationType: 'mutations', priority: 'interactive', url: 'https://school.example/admin/graphql' }]);
    const callId = (call?.[1] as TelemetryCall).callId;
    expect(seen.slice(1).map((entry) => entry.slice(0, 2))).toEqual([
      ['event', 'request'],
      ['attempt', callId],
      ['event', 'response'],
    ]);
    expect(received[0]?.get('x-trace-test')).toBe('yes');
    const everything = JSON.stringify(seen);
    expect(everything).not.toContain(KEY);
    expect(everything).not.toContain('ada@example.com');
  });

  it('what an instrumentation adds never replaces the key header or the SDK\'s own', async () => {
    const received: Headers[] = [];
    const admin = new AdminClient({ apiKey: KEY, baseUrl: 'https://school.example', fetch: grantFetch(received), limits: false });
    setTelemetry(recordingTelemetry([], { 'X-Service-API-Key': 'sk_live_stolen_0000000000', 'content-type': 'text/plain', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }));
    await admin.grantCoupon('c-1', { email: 'ada@example.com' });
    expect(received[0]?.get('x-service-api-key')).toBe(KEY);
    expect(received[0]?.get('content-type')).toBe('application/json');
    expect(received[0]?.get('traceparent')).toBe('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
  });

  it('a derived client\'s events reach the instrumentation once each, not once per level', async () => {
    const admin = new AdminClient({ apiKey: KEY, baseUrl: 'https://school.example', fetch: grantFetch([]), limits: false });
    const seen: Seen = [];
    setTelemetry(recordingTelemetry(seen));
    await admin.withOptions({ timeoutMs: 5_000 }).withOptions({ maxRetries: 1 }).grantCoupon('c-1', { email: 'ada@example.com' });
    expect(seen.filter((entry) => entry[0] === 'event').map((entry) => entry[1])).toEqual(['request', 'response']);
  });

  it('telemetry: false keeps a client out of it (its calls, attempts and jobs); withOptions may say otherwise', async () => {
    const received: Headers[] = [];
    const admin = new AdminClient({ apiKey: KEY, baseUrl: 'https://school.example', fetch: grantFetch(received), limits: false, telemetry: false });
    const seen: Seen = [];
    setTelemetry(recordingTelemetry(seen));
    await admin.grantCoupon('c-1', { email: 'ada@example.com' });
    await admin.grantCouponToMany('c-1', [{ email: 'bea@example.com' }]);
    expect(seen.filter((entry) => entry[0] !== 'event')).toEqual([]);
    expect(received.map((headers) => headers.get('x-trace-test'))).toEqual([null, null]);
    await admin.withOptions({ telemetry: true }).grantCoupon('c-1', { email: 'ada@example.com' });
    expect(seen.filter((entry) => entry[0] === 'call')).toHaveLength(1);
  });

  it('jobs: grantCouponToMany and a bulk call sent in chunks announce one job each; a single-chunk bulk call is a call', async () => {
    const server = await startMockServer({ seed: 'demo' });
    try {
      const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, bulkChunkSize: 2 });
      const seen: Seen = [];
      setTelemetry(recordingTelemetry(seen));
      await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, [{ email: demoMemberEmail(1) }, { email: demoMemberEmail(2) }]);
      const start = Math.floor(Date.now() / 1000) + 90 * 86_400;
      const rows = (count: number) => Array.from({ length: count }, (_, index) => ({ startedAt: start + index * 3_600, endedAt: start + index * 3_600 + 1_800 }));
      await admin.bulkCreateMeetings(DEMO_IDS.defaultModeServiceId, rows(5));
      await admin.bulkCreateMeetings(DEMO_IDS.defaultModeServiceId, rows(1));
      expect(seen.filter((entry) => entry[0] === 'job').map((entry) => entry[1])).toEqual([
        { operation: 'grantCouponToMany', rows: 2 },
        { operation: 'bulkCreateMeetings', rows: 5 },
      ]);
      expect(seen.filter((entry) => entry[0] === 'call').map((entry) => (entry[1] as TelemetryCall).operation)).toEqual(['grantCoupon', 'grantCoupon', 'bulkCreateMeetings', 'bulkCreateMeetings', 'bulkCreateMeetings', 'bulkCreateMeetings']);
    } finally {
      await server.close();
    }
  });
});

describe('request events say how long the attempt waited in the queue for its permit, and why', () => {
  it('a call queued behind a spent budget: waited { waitedMs, reason: budget, budget in force }; one that got its permit at once: undefined', async () => {
    const server = await startMockServer({ seed: 'demo' });
    try {
      const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { mutations: { limit: 2, windowMs: 300 }, interactiveReserve: 0, store: new MemoryPermitStore() } });
      const requests: RequestEvent[] = [];
      admin.on('request', (event) => requests.push(event));
      await Promise.all([1, 2, 3].map((member) => admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(member + 60) })));
      const waits = requests.map((event) => event.waited);
      expect(waits.filter((waited) => waited === undefined)).toHaveLength(2);
      const queued = waits.find((waited) => waited !== undefined);
      expect(queued).toMatchObject({ reason: 'budget', budget: { limit: 2, windowMs: 300, source: 'configured' } });
      expect(queued?.waitedMs).toBeGreaterThan(100);
    } finally {
      await server.close();
    }
  });
});
