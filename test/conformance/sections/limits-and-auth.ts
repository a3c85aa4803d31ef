import { describe, expect, it } from 'vitest';
import { AuthenticationError, CodedError, RateLimitError } from '../../../src/index.js';
import { NOW } from '../support/fixture.js';
import type { ConformanceTarget } from '../support/targets.js';
import { useWorld, type World } from '../support/world.js';

/** A cheap mutation through the SDK: fails with COUPON-004 but counts like any other. */
async function cheapMutation(w: World): Promise<unknown> {
  return w.client.revokeCouponGrant('missing').catch((error: unknown) => error);
}

/** Limits (rate limits) and Authentication, through the SDK with its pacing off and no retries. */
export function limitsAndAuthSection(target: ConformanceTarget): void {
  describe('Limits: rate limits (server defaults 200 mutations / 600 queries per 60 s)', () => {
    const world = useWorld(target, {});

    it('200 mutations pass and the 201st within the window gets the documented 429 (RateLimitError)', async () => {
      const w = world();
      for (let i = 0; i < 200; i += 1) expect(await cheapMutation(w)).toBeInstanceOf(CodedError);
      const error = await cheapMutation(w);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ operationType: 'mutations', limit: 200, resetAt: NOW + 60 });
      // Retry-After said 60 s; the client may wait longer (it also reads X-RateLimit-Reset against real time).
      expect((error as RateLimitError).retryAfterMs).toBeGreaterThanOrEqual(60_000);
      expect(w.sim.stats().fields['revokeCouponGrant']).toEqual({ arrivals: 201, executions: 200, rateLimited: 1 });
    });

    it('queries are counted apart from mutations', async () => {
      const w = world();
      for (let i = 0; i < 201; i += 1) await cheapMutation(w);
      await expect(w.client.request('query { __typename }')).resolves.toEqual({ __typename: 'Query' });
    });

    it('600 queries pass and the 601st gets a 429 for queries', async () => {
      const w = world();
      for (let i = 0; i < 600; i += 1) await w.client.request('{ __typename }');
      await expect(w.client.request('{ __typename }')).rejects.toMatchObject({ operationType: 'queries', limit: 600 });
    });

    it('a request starting with whitespace or a comment before mutation counts as a query', async () => {
      const w = world();
      await w.client.request(' mutation { revokeCouponGrant(grantId: "x") { errors } }').catch(() => undefined);
      await w.client.request('# note\nmutation { revokeCouponGrant(grantId: "x") { errors } }').catch(() => undefined);
      await cheapMutation(w);
      expect(w.sim.stats().requests).toEqual({ mutations: 1, queries: 2 });
    });

    it('entries expire as the window slides (injected clock): a slot frees 60 s after the oldest request', async () => {
      const w = world();
      for (let i = 0; i < 100; i += 1) await cheapMutation(w);
      w.clock.advance(30_000);
      for (let i = 0; i < 100; i += 1) await cheapMutation(w);
      expect(await cheapMutation(w)).toBeInstanceOf(RateLimitError);
      w.clock.advance(30_000); // the first 100 (and not the 429) have left the window
      for (let i = 0; i < 99; i += 1) expect(await cheapMutation(w)).toBeInstanceOf(CodedError);
      expect(await cheapMutation(w)).toBeInstanceOf(RateLimitError);
    });

    it('createCouponGrant counts against the mutation limit', async () => {
      const w = world();
      const coupon = w.s.school.addCoupon({ restricted: true });
      for (let i = 0; i < 200; i += 1) await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id });
      await expect(w.client.grantCoupon(coupon.id, { userId: w.s.alice.id })).rejects.toBeInstanceOf(RateLimitError);
      expect(w.sim.school().tables.grants.size).toBe(1);
    });
  });

  describe('Authentication: X-Service-API-Key, scoped keys', () => {
    const world = useWorld(target);

    it('an unknown key is refused (AuthenticationError, HTTP 401 by the simulator\'s assumption)', async () => {
      const w = world();
      const error = await w.clientWith('sk_live_not_a_key').revokeCouponGrant('x').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({ status: 401, serverCode: 'UNAUTHENTICATED' });
    });

    it('a key lacking the scope is refused (AuthenticationError, HTTP 403) and nothing is executed', async () => {
      const w = world();
      const key = w.s.school.addApiKey({ scopes: ['courses:write'] });
      const error = await w.clientWith(key).createCoupon({ name: 'X', couponType: 'percentage', amount: 5 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 403, serverCode: 'FORBIDDEN' });
      expect(w.sim.stats().fields['createCoupon']?.executions).toBe(0);
    });

    it('scopes per the spec\'s table: courses:write, students:write or members:write, coupons:write', async () => {
      const w = world();
      const courses = w.clientWith(w.s.school.addApiKey({ scopes: ['courses:write'] }));
      const students = w.clientWith(w.s.school.addApiKey({ scopes: ['students:write'] }));
      const coupons = w.clientWith(w.s.school.addApiKey({ scopes: ['coupons:write'] }));
      await expect(courses.createConsultingService({ name: 'S', courseId: w.s.course.id })).resolves.toMatchObject({ name: 'S' });
      const meeting = w.meeting();
      await expect(students.enrollStudent(meeting.id, { userId: w.s.alice.id })).resolves.toMatchObject({ meeting: { state: 'scheduled' } });
      await expect(coupons.createCoupon({ name: 'C', couponType: 'fixed_amount', amount: 5 })).resolves.toMatchObject({ name: 'C' });
      await expect(students.cancelMeeting(meeting.id)).rejects.toBeInstanceOf(AuthenticationError);
      await expect(courses.grantCoupon(w.s.school.addCoupon({ restricted: true }).id, { userId: w.s.alice.id })).rejects.toBeInstanceOf(AuthenticationError);
    });
  });
}
