import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, HttpError, NetworkError, TimeoutError, type RetryEvent } from '../../src/index.js';
import { createSimulator, DEMO_API_KEY, DEMO_IDS, demoMemberEmail, seedDemoSchool, type Simulator } from '../../src/testing/index.js';
import { listenOptions } from '../support/msw-listen.js';

const BASE_URL = 'https://retry.school.test';
let simulator: Simulator;
/** How many upcoming responses are lost after the simulator executed the request. */
let loseResponses = 0;
/** How many upcoming requests fail before reaching the simulator (connection refused). */
let refuseConnections = 0;
/** A status to answer instead of forwarding (a proxy failing), for the next N requests. */
let proxyFailures: { status: number; times: number } = { status: 502, times: 0 };

const server = setupServer(
  http.post(`${BASE_URL}/admin/graphql`, async ({ request }) => {
    if (proxyFailures.times > 0) {
      proxyFailures.times -= 1;
      return new HttpResponse('<html>Bad gateway</html>', { status: proxyFailures.status, headers: { 'content-type': 'text/html' } });
    }
    const answer = await simulator.handle({ method: 'POST', url: request.url, headers: request.headers, body: await request.text() });
    if (loseResponses > 0) {
      loseResponses -= 1;
      return HttpResponse.error(); // executed, but the response never arrives
    }
    return new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
  }),
);

/** A fetch whose first N calls fail like a refused connection (never reached the server). */
const refusingFetch: typeof fetch = async (input, init) => {
  if (refuseConnections > 0) {
    refuseConnections -= 1;
    throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
  }
  return fetch(input, init);
};

beforeAll(() => server.listen(listenOptions('error')));
afterEach(() => {
  loseResponses = 0;
  refuseConnections = 0;
  proxyFailures = { status: 502, times: 0 };
});
afterAll(() => server.close());

function client(): AdminClient {
  simulator = createSimulator({ limits: false });
  seedDemoSchool(simulator);
  return new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: BASE_URL, fetch: refusingFetch, limits: false, retryBaseDelayMs: 1, maxRetryDelayMs: 5 });
}

const executions = (field: string) => simulator.stats().fields[field]?.executions ?? 0;
const couponInput = { name: 'Spring', couponType: 'percentage', amount: 10, code: 'SPRING26' } as const;

describe('retry policy: "retries only where the operation is safe to repeat"', () => {
  it('a non-idempotent mutation (createCoupon) whose response is lost is NOT sent again: NetworkError { mayHaveReachedServer: true }', async () => {
    const admin = client();
    loseResponses = 1;
    const error = await admin.createCoupon(couponInput).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ mayHaveReachedServer: true });
    expect(executions('createCoupon')).toBe(1);
    expect([...simulator.school().tables.coupons.values()].filter((coupon) => coupon.code === 'SPRING26')).toHaveLength(1);
  });

  it('an idempotent mutation (grantCoupon) whose response is lost is retried and succeeds, with one grant', async () => {
    const admin = client();
    const retries: RetryEvent[] = [];
    admin.on('retry', (event) => retries.push(event));
    loseResponses = 1;
    const result = await admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(301) });
    expect(result.created).toBe(false); // the lost first attempt created it
    expect(executions('createCouponGrant')).toBe(2);
    expect(retries).toEqual([{ operation: 'grantCoupon', callId: expect.stringMatching(/^call_/), attempt: 2, error: 'NetworkError', retriesLeft: expect.any(Number) }]);
    const grants = [...simulator.school().tables.grants.values()].filter((grant) => grant.couponId === DEMO_IDS.restrictedCouponId && grant.status !== 'revoked');
    expect(grants).toHaveLength(1);
  });

  it('a non-idempotent mutation is retried when the connection was refused (surely never reached the server)', async () => {
    const admin = client();
    refuseConnections = 2;
    await expect(admin.createCoupon(couponInput)).resolves.toMatchObject({ code: 'SPRING26' });
    expect(executions('createCoupon')).toBe(1);
  });

  it.each([502, 503, 504])('HTTP %i is retried for an idempotent operation', async (status) => {
    const admin = client();
    proxyFailures = { status, times: 2 };
    await expect(admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(302) })).resolves.toMatchObject({ created: true });
  });

  it('HTTP 503 is not retried for a non-idempotent operation (HttpError)', async () => {
    const admin = client();
    proxyFailures = { status: 503, times: 1 };
    const error = await admin.createCoupon(couponInput).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503 });
    expect(executions('createCoupon')).toBe(0);
  });

  it('coded errors are never retried', async () => {
    const admin = client();
    await expect(admin.grantCoupon('00000000-0000-4000-8000-00000000dead', { userId: DEMO_IDS.ownerId })).rejects.toMatchObject({ code: 'COUPON-001' });
    expect(simulator.stats().fields.createCouponGrant?.arrivals).toBe(1);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: BASE_URL, limits: false, maxRetries: 2, retryBaseDelayMs: 1, maxRetryDelayMs: 2 });
    simulator = createSimulator({ limits: false });
    seedDemoSchool(simulator);
    proxyFailures = { status: 502, times: 10 };
    await expect(admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(303) })).rejects.toMatchObject({ name: 'HttpError', status: 502 });
    expect(proxyFailures.times).toBe(7);
  });
});

describe('timeouts', () => {
  it('a non-idempotent call that times out throws TimeoutError and is not repeated', async () => {
    simulator = createSimulator({ limits: false, latency: { afterHandlingMs: () => 300 } });
    seedDemoSchool(simulator);
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: BASE_URL, limits: false, timeoutMs: 100, retryBaseDelayMs: 1 });
    const error = await admin.createCoupon(couponInput).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ timeoutMs: 100, mayHaveReachedServer: true });
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(executions('createCoupon')).toBe(1);
  });
});
