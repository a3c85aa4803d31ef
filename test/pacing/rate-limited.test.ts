import { describe, expect, it } from 'vitest';
import { AdminClient, MemoryPermitStore, RateLimitError, type RateLimitedEvent } from '../../src/index.js';
import { createSimulator, DEMO_API_KEY, DEMO_IDS, demoMemberEmail, seedDemoSchool, startMockServer } from '../../src/testing/index.js';
import { useScriptedAdminApi, testClient } from '../support/scripted-admin-api.js';

const api = useScriptedAdminApi({ onUnhandledRequest: 'bypass' });

const rateLimited = (retryAfter: string | undefined, extensions: Record<string, unknown> = {}) => ({
  status: 429,
  headers: { ...(retryAfter === undefined ? {} : { 'Retry-After': retryAfter }), 'X-RateLimit-Limit': '200' },
  body: { errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMIT_EXCEEDED', operation_type: 'mutations', limit: 200, ...extensions } }] },
});
const granted = { body: { data: { createCouponGrant: { grant: { id: 'g', status: 'granted', userName: null, userEmail: null, grantedByName: null, grantedAt: 1, redeemedAt: null, revokedAt: null }, created: true, errors: null } } } };
const grant = (admin: AdminClient) => admin.grantCoupon('c-1', { userId: 'u-1' });

describe('429: pause until the time the server names, then send again', () => {
  it('"Retry-After (seconds to wait)" is read in seconds: Retry-After: 1 waits about a second, not a millisecond', async () => {
    api.answer(rateLimited('1'), granted);
    const started = performance.now();
    await expect(grant(testClient())).resolves.toMatchObject({ created: true });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(api.requests).toHaveLength(2);
  });

  it('a 429 is retried even for an operation that is not safe to repeat (the server did not execute it)', async () => {
    const revoked = { ...granted.body.data.createCouponGrant.grant, status: 'revoked', revokedAt: 2 };
    api.answer(rateLimited('0'), { body: { data: { revokeCouponGrant: { grant: revoked, errors: null } } } });
    await expect(testClient().revokeCouponGrant('g')).resolves.toMatchObject({ id: 'g' });
    expect(api.requests).toHaveLength(2);
  });

  it('gives up with RateLimitError and its fields after maxRetries 429s', async () => {
    api.answer(rateLimited('0', { retry_after: 0, reset_at: 1_700_000_000 }));
    const error = await grant(testClient({ maxRetries: 2 })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ operationType: 'mutations', limit: 200, resetAt: 1_700_000_000 });
    expect(api.requests).toHaveLength(3);
  });

  it('"maxRateLimitWaitMs bounds the sum of the call\'s 429 waits", not each wait: waits of 1 s each stop at 2 under 2.5 s', async () => {
    // A window of 1 s caps the fallback backoff at 1 s, so every wait is the server's constant 1 s.
    api.answer(rateLimited('1'));
    const admin = testClient({ apiKey: 'sk_live_total_wait_0001', maxRetries: 10, maxRateLimitWaitMs: 2_500, limits: { mutations: { windowMs: 1_000 }, store: new MemoryPermitStore() } });
    const waits: number[] = [];
    admin.on('rateLimited', (event) => waits.push(event.waitMs));
    const error = await grant(admin).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 1_000 });
    // A third wait would take the total to 3 s: the call stops after 2 waits and 3 requests.
    expect(waits).toEqual([1_000, 1_000]);
    expect(api.requests).toHaveLength(3);
  });

  it('gives up at once when the server asks for a wait longer than maxRateLimitWaitMs', async () => {
    api.answer(rateLimited('3600'));
    const error = await grant(testClient({ maxRateLimitWaitMs: 5_000 })).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'RateLimitError', retryAfterMs: 3_600_000 });
    expect(api.requests).toHaveLength(1);
  });

  it('waits for the latest of Retry-After, retry_after and reset_at', async () => {
    const events: RateLimitedEvent[] = [];
    api.answer(rateLimited('0', { retry_after: 1 }), granted);
    const admin = testClient();
    admin.on('rateLimited', (event) => events.push(event));
    await grant(admin);
    expect(events).toEqual([{ operation: 'grantCoupon', callId: expect.stringMatching(/^call_/), attempt: 1, operationType: 'mutations', waitMs: 1000, limit: 200, count: 1 }]);
  });

  it('an HTTP-date Retry-After is honoured; a garbage one falls back to a short backoff', async () => {
    const events: RateLimitedEvent[] = [];
    const inOneSecond = new Date(Date.now() + 1500).toUTCString();
    api.answer(rateLimited(inOneSecond), rateLimited('soon-ish'), granted);
    const admin = testClient();
    admin.on('rateLimited', (event) => events.push(event));
    await grant(admin);
    expect(events[0]?.waitMs).toBeGreaterThan(0);
    expect(events[0]?.waitMs).toBeLessThanOrEqual(1500);
    // No usable hint: back off from 1 s, doubling per 429 of the same call (this is the second).
    expect(events[1]?.waitMs).toBe(2000);
  });

  it('"the request is sent again from the head of the queue": before the calls that queued behind it during its 429', async () => {
    // One request at a time: A goes, B and C queue behind it; A is answered 429 once.
    let answeredA = false;
    api.answer((request) => {
      if (request.variables['userId'] !== 'u-A' || answeredA) return granted;
      answeredA = true;
      return rateLimited('0');
    });
    const admin = testClient({ apiKey: 'sk_live_head_of_lane_01', limits: { mutations: { limit: 1, windowMs: 200 }, store: new MemoryPermitStore() } });
    await Promise.all(['u-A', 'u-B', 'u-C'].map((userId) => admin.grantCoupon('c-1', { userId })));
    expect(api.requests.map((request) => request.variables['userId'])).toEqual(['u-A', 'u-A', 'u-B', 'u-C']);
  });

  it('an abort during the pause rejects at once', async () => {
    api.answer(rateLimited('30'), granted);
    const controller = new AbortController();
    const call = testClient().grantCoupon('c-1', { userId: 'u-1' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by caller')), 50);
    await expect(call).rejects.toThrow('cancelled by caller');
    expect(api.requests).toHaveLength(1);
  });
});

describe('429 from traffic the client did not send (another client of the key)', () => {
  it('pauses, adapts to the stated limit, and completes every call', async () => {
    const simulator = createSimulator({ limits: { mutations: { limit: 4, windowMs: 500 } } });
    seedDemoSchool(simulator);
    const server = await startMockServer({ simulator });
    try {
      // A foreign script spends the whole budget unannounced.
      const foreign = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: false, maxRetries: 0 });
      await Promise.all([1, 2, 3, 4].map((n) => foreign.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(300 + n) })));
      // Ours believes the limit is 10 until the server says 4.
      const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { mutations: { limit: 10, windowMs: 500 }, store: new MemoryPermitStore() } });
      const events: RateLimitedEvent[] = [];
      admin.on('rateLimited', (event) => events.push(event));
      const results = await Promise.all([5, 6, 7, 8, 9, 10].map((n) => admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(300 + n) })));
      expect(results.every((result) => result.created)).toBe(true);
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((event) => event.limit === 4)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('limits as stated: "an explicitly configured limit is a ceiling; the default may be raised; a learnt limit is shared"', () => {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
  const hint = (limit: number) => ({ ...rateLimited('0', { limit }), headers: { 'Retry-After': '0', 'X-RateLimit-Limit': String(limit) } });

  it('a configured limit of 5 is never raised by a server hint of 1000: at most 5 requests in the window', async () => {
    api.answer(hint(1_000), granted);
    const admin = testClient({ apiKey: 'sk_live_ceiling_key_0001', limits: { mutations: { limit: 5, windowMs: 60_000 }, store: new MemoryPermitStore() } });
    const calls = Array.from({ length: 30 }, () => grant(admin).catch(() => undefined));
    await settle();
    expect(api.requests.length).toBeLessThanOrEqual(5);
    void calls;
  });

  it('the documented default (200) may be raised by the server hint, for self-hosted deployments', async () => {
    api.answer(hint(1_000), granted);
    const admin = testClient({ apiKey: 'sk_live_raise_key_0001', limits: { store: new MemoryPermitStore() } });
    await grant(admin);
    // After the 429 the client also uses half its share for a window (foreign traffic): 500 of 1000.
    const results = await Promise.all(Array.from({ length: 400 }, () => grant(admin)));
    expect(results).toHaveLength(400);
    expect(api.requests).toHaveLength(402);
  });

  it('a limit learnt by one client is used by another client of the key in the process (default store)', async () => {
    api.answer(hint(10), granted);
    const options = { apiKey: 'sk_live_shared_hint_key_01', limits: { mutations: { windowMs: 60_000 } } };
    await grant(testClient(options)); // a 429 stating 10, then the same request granted: 2 counted
    api.reset();
    api.answer(granted);
    const other = testClient(options);
    const calls = Array.from({ length: 30 }, () => grant(other).catch(() => undefined));
    await settle();
    // Without sharing, the second client would have sent all 30 under the default of 200.
    expect(api.requests).toHaveLength(8);
    void calls;
  });
});
