import { describe, expect, it } from 'vitest';
import { CHEAP_MUTATION, CHEAP_QUERY, postGraphQL } from './support/post-graphql.js';
import { NOW_MS, smallSchool } from './support/small-school.js';

describe('Limits: rate limits per API key (sliding window)', () => {
  it('200 mutations pass and the 201st within the window gets the documented 429', async () => {
    const { sim, clock, key } = smallSchool();
    for (let i = 0; i < 200; i += 1) {
      const answer = await postGraphQL(sim, CHEAP_MUTATION, {}, key);
      expect(answer.status).toBe(200);
      clock.advance(100); // 200 requests over 20 s, all inside the 60 s window
    }
    const answer = await postGraphQL(sim, CHEAP_MUTATION, {}, key);
    // The first request arrived at NOW_MS and leaves the window at NOW_MS + 60 s; now is NOW_MS + 20 s.
    const resetAt = Math.ceil((NOW_MS + 60_000 + 100) / 1000);
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('41');
    expect(answer.headers['x-ratelimit-limit']).toBe('200');
    expect(answer.headers['x-ratelimit-reset']).toBe(String(resetAt));
    expect(answer.json.errors[0].message).toMatch(/rate limit/i);
    expect(answer.json.errors[0].extensions).toEqual({
      code: 'RATE_LIMIT_EXCEEDED',
      operation_type: 'mutations',
      limit: 200,
      retry_after: 41,
      reset_at: resetAt,
    });
    expect(sim.stats().rateLimited).toEqual({ mutations: 1, queries: 0 });
  });

  it('counters are independent for mutations and for queries', async () => {
    const { sim, key } = smallSchool({ limits: { mutations: { limit: 3, windowMs: 60_000 }, queries: { limit: 5, windowMs: 60_000 } } });
    for (let i = 0; i < 3; i += 1) expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).status).toBe(200);
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).status).toBe(429);
    for (let i = 0; i < 5; i += 1) expect((await postGraphQL(sim, CHEAP_QUERY, {}, key)).status).toBe(200);
    const query = await postGraphQL(sim, CHEAP_QUERY, {}, key);
    expect(query.status).toBe(429);
    expect(query.json.errors[0].extensions).toMatchObject({ operation_type: 'queries', limit: 5 });
  });

  it('counters are per API key', async () => {
    const { sim, key } = smallSchool({ limits: { mutations: { limit: 2, windowMs: 60_000 } } });
    const otherKey = sim.seeder(sim.school().id).addApiKey();
    await postGraphQL(sim, CHEAP_MUTATION, {}, key);
    await postGraphQL(sim, CHEAP_MUTATION, {}, key);
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).status).toBe(429);
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, otherKey)).status).toBe(200);
  });

  it.each([
    ['leading whitespace', ' mutation { deleteConsultingService(id: "x") { errors } }'],
    ['a leading newline', '\nmutation { deleteConsultingService(id: "x") { errors } }'],
    ['a leading # comment', '# comment\nmutation { deleteConsultingService(id: "x") { errors } }'],
    ['introspection', '{ __schema { queryType { name } } }'],
  ])('a document with %s counts as a query, not a mutation', async (_label, document) => {
    const { sim, key } = smallSchool({ limits: { mutations: { limit: 1, windowMs: 60_000 }, queries: { limit: 1, windowMs: 60_000 } } });
    expect((await postGraphQL(sim, document, {}, key)).status).toBe(200);
    expect(sim.stats().requests).toEqual({ mutations: 0, queries: 1 });
    // The mutation budget is untouched, the query budget is spent.
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).status).toBe(200);
    expect((await postGraphQL(sim, CHEAP_QUERY, {}, key)).status).toBe(429);
  });

  it('a request older than the window no longer counts; entries expire one by one (no fixed reset)', async () => {
    const { sim, clock, key } = smallSchool({ limits: { mutations: { limit: 2, windowMs: 10_000 } } });
    await postGraphQL(sim, CHEAP_MUTATION, {}, key); // t = 0
    clock.advance(4_000);
    await postGraphQL(sim, CHEAP_MUTATION, {}, key); // t = 4 s
    clock.advance(5_999);
    const blocked = await postGraphQL(sim, CHEAP_MUTATION, {}, key); // t = 9.999 s, counted too
    expect(blocked.status).toBe(429);
    // Room for one more needs the first two arrivals (t = 0 and t = 4 s) out of the window: t = 14 s.
    expect(blocked.json.errors[0].extensions.retry_after).toBe(5);
    clock.set(NOW_MS + 14_000);
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).status).toBe(200);
    clock.set(NOW_MS + 19_000); // the 429 at 9.999 s still counts, the request at 14 s too
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).status).toBe(429);
    clock.set(NOW_MS + 24_000); // 9.999 s and 14 s have left; 19 s remains
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).status).toBe(200);
  });

  it('Retry-After is at least 1 second', async () => {
    const { sim, clock, key } = smallSchool({ limits: { mutations: { limit: 1, windowMs: 1_000 } } });
    await postGraphQL(sim, CHEAP_MUTATION, {}, key);
    clock.advance(999);
    const answer = await postGraphQL(sim, CHEAP_MUTATION, {}, key);
    expect(answer.status).toBe(429);
    expect(answer.headers['retry-after']).toBe('1');
  });

  it('all requests count, whether they succeed or fail: coded errors, unknown keys and 429s', async () => {
    const { sim, key } = smallSchool({ limits: { mutations: { limit: 3, windowMs: 60_000 } } });
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).json.errors[0].extensions.error.code).toBe('CONSULTING-001');
    expect((await postGraphQL(sim, 'mutation { nonsense }', {}, key)).status).toBe(200);
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).status).toBe(200);
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).status).toBe(429);
    const unknown = 'sk_live_unknown';
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, unknown)).status).toBe(401);
    expect(sim.stats().requests.mutations).toBe(5);
  });

  it('createCouponGrant counts against the mutation limit', async () => {
    const { sim, key } = smallSchool({ limits: { mutations: { limit: 1, windowMs: 60_000 } } });
    const grant = 'mutation { createCouponGrant(couponId: "x", userId: "y") { created } }';
    expect((await postGraphQL(sim, grant, {}, key)).status).toBe(200);
    const second = await postGraphQL(sim, grant, {}, key);
    expect(second.status).toBe(429);
    expect(second.json.errors[0].extensions.operation_type).toBe('mutations');
  });

  it('the limits default to 200 mutations and 600 queries per 60 s', () => {
    expect(smallSchool().sim.options.limits).toEqual({
      mutations: { limit: 200, windowMs: 60_000 },
      queries: { limit: 600, windowMs: 60_000 },
    });
  });

  it('limits: false turns rate limiting off (self-hosted deployments adjust limits and window)', async () => {
    const { sim, key } = smallSchool({ limits: false });
    for (let i = 0; i < 250; i += 1) expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).status).toBe(200);
    expect(sim.stats().rateLimited.mutations).toBe(0);
  });
  describe('rateLimitHeaders: a self-hosted server that states its budget on every answer (issue 27)', () => {
    it("by default answers follow the spec: the budget only with a 429, and without its window", async () => {
      const { sim, key } = smallSchool({ limits: { mutations: { limit: 1, windowMs: 10_000 } } });
      const ok = await postGraphQL(sim, CHEAP_MUTATION, {}, key);
      expect(Object.keys(ok.headers).filter((name) => name.includes('ratelimit'))).toEqual([]);
      const limited = await postGraphQL(sim, CHEAP_MUTATION, {}, key);
      expect(limited.headers['x-ratelimit-limit']).toBe('1');
      expect(limited.headers['ratelimit-policy']).toBeUndefined();
    });

    it("'every-answer' states the budget of the request's type on every answer, 429s included: RateLimit-Policy, RateLimit, X-RateLimit-Limit and -Window", async () => {
      const { sim, clock, key } = smallSchool({ limits: { mutations: { limit: 2, windowMs: 10_000 } }, rateLimitHeaders: 'every-answer' });
      const first = await postGraphQL(sim, CHEAP_MUTATION, {}, key);
      expect(first.headers).toMatchObject({ 'ratelimit-policy': '"mutations";q=2;w=10', ratelimit: '"mutations";r=1;t=10', 'x-ratelimit-limit': '2', 'x-ratelimit-window': '10' });
      clock.advance(4_000);
      expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).headers['ratelimit']).toBe('"mutations";r=0;t=6');
      const limited = await postGraphQL(sim, CHEAP_MUTATION, {}, key);
      expect(limited.status).toBe(429);
      expect(limited.headers).toMatchObject({ 'ratelimit-policy': '"mutations";q=2;w=10', 'x-ratelimit-window': '10', 'retry-after': '10' }); // every arrival counts: room for one more when the second leaves
      expect((await postGraphQL(sim, CHEAP_QUERY, {}, key)).headers['ratelimit-policy']).toBe('"queries";q=600;w=60');
    });
  });
});
