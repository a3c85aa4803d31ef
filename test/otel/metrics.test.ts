import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryPermitStore } from '../../src/index.js';
import { DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';
import { AdminClient, DEMO_API_KEY_FOR_TESTS } from './support/clients.js';
import { points, startOtel, type OtelHarness } from './support/otel-harness.js';
import { startRecordingServer, type RecordingServer } from './support/recording-server.js';

let otel: OtelHarness;
let server: RecordingServer;

beforeAll(async () => {
  server = await startRecordingServer({ limits: { mutations: { limit: 5, windowMs: 1_000 }, queries: { limit: 600, windowMs: 60_000 } } });
  otel = startOtel();
});

afterAll(async () => {
  await otel?.stop();
  await server?.close();
});

describe('metrics, with the conventions\' naming and units', () => {
  it('call duration in seconds, by operation and outcome (error.type and ran on a failure)', async () => {
    const admin = new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: server.url, limits: { store: new MemoryPermitStore() } });
    await admin.request('query Probe { __typename }');
    await admin.revokeCouponGrant('00000000-0000-4000-8000-000000000000').catch(() => undefined);
    const metric = (await otel.collect()).get('school_admin.client.operation.duration');
    expect(metric?.descriptor).toMatchObject({ unit: 's', type: 'HISTOGRAM' });
    const byName = Object.fromEntries(points(metric).map((point) => [String(point.attributes['graphql.operation.name']), point]));
    expect(byName['Probe']?.attributes).toEqual({ 'graphql.operation.type': 'query', 'graphql.operation.name': 'Probe', 'school_admin.method': 'request', 'school_admin.lane': 'interactive', 'school_admin.ran': 'yes' });
    expect(byName['RevokeCouponGrant']?.attributes).toEqual({
      'graphql.operation.type': 'mutation',
      'graphql.operation.name': 'RevokeCouponGrant',
      'school_admin.method': 'revokeCouponGrant',
      'school_admin.lane': 'interactive',
      'error.type': 'COUPON-004',
      'school_admin.ran': 'no',
    });
    const probe = byName['Probe']?.value as { count: number; sum: number };
    expect(probe.count).toBe(1);
    expect(probe.sum).toBeGreaterThan(0);
    expect(probe.sum).toBeLessThan(5);
  });

  it('permit waits in seconds by lane and reason, 429s, and calls waiting per lane while they wait', async () => {
    // The client assumes the documented budget; the server allows 5 per second: 429s, then the
    // learnt limit paces the rest.
    const admin = new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: server.url, limits: { store: new MemoryPermitStore() } });
    const served = server.headers.length;
    const paused = new Promise<void>((resolve) => admin.on('rateLimited', () => resolve()));
    const calls = Array.from({ length: 12 }, (_, index) => admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(200 + index) }));
    // After a 429 every call of the key waits out the pause (a second at least): the gauge shows them in their lane.
    await paused;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const during = points((await otel.collect()).get('school_admin.client.waiting_calls')).find((point) => point.attributes['school_admin.lane'] === 'interactive' && point.attributes['school_admin.operation_type'] === 'mutations');
    expect(Number(during?.value)).toBeGreaterThan(0);
    await Promise.all(calls);
    const collected = await otel.collect();
    const after = points(collected.get('school_admin.client.waiting_calls')).find((point) => point.attributes['school_admin.lane'] === 'interactive' && point.attributes['school_admin.operation_type'] === 'mutations');
    expect(after?.value).toBe(0);
    expect(collected.get('school_admin.client.waiting_calls')?.descriptor).toMatchObject({ unit: '{call}', type: 'OBSERVABLE_UP_DOWN_COUNTER' });

    const sent = server.headers.length - served;
    const four29s = points(collected.get('school_admin.client.rate_limited_responses'));
    const counted = four29s.reduce((sum, point) => sum + Number(point.value), 0);
    expect(sent - counted).toBe(12);
    expect(counted).toBeGreaterThan(0);
    expect(four29s[0]?.attributes).toEqual({ 'school_admin.lane': 'interactive', 'school_admin.operation_type': 'mutations', 'school_admin.method': 'grantCoupon' });
    expect(collected.get('school_admin.client.rate_limited_responses')?.descriptor).toMatchObject({ unit: '{response}', type: 'COUNTER' });

    const waits = points(collected.get('school_admin.client.permit.wait_time'));
    expect(collected.get('school_admin.client.permit.wait_time')?.descriptor).toMatchObject({ unit: 's', type: 'HISTOGRAM' });
    const reasons = new Set(waits.map((point) => point.attributes['school_admin.wait.reason']));
    expect([...reasons].every((reason) => ['budget', 'paused', 'learnt_limit'].includes(String(reason)))).toBe(true);
    expect(waits.every((point) => point.attributes['school_admin.lane'] === 'interactive')).toBe(true);
    expect(waits.reduce((sum, point) => sum + (point.value as { count: number }).count, 0)).toBeGreaterThan(0);
  });
});
