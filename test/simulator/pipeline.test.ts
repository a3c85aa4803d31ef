import { describe, expect, it } from 'vitest';
import { CHEAP_MUTATION, CHEAP_QUERY, postGraphQL } from './support/post-graphql.js';
import { smallSchool } from './support/small-school.js';

const CREATE_COUPON = 'mutation { createCoupon(input: { name: "X", couponType: "percentage", amount: 10 }) { coupon { id } errors } }';

describe('Transport: POST {base_url}/admin/graphql', () => {
  it('the path /graphql is the public school API, not the admin endpoint: 404', async () => {
    const { sim, key } = smallSchool();
    const answer = await sim.handle({ method: 'POST', path: '/graphql', headers: { 'X-Service-API-Key': key }, body: JSON.stringify({ query: CHEAP_QUERY }) });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body).errors[0].extensions.code).toBe('NOT_FOUND');
    expect(sim.stats().requests).toEqual({ mutations: 0, queries: 0 });
  });

  it('every admin operation is a POST: another method gets 405 with Allow: POST', async () => {
    const { sim, key } = smallSchool();
    const answer = await sim.handle({ method: 'GET', url: 'http://school.example/admin/graphql?query=%7B__typename%7D', headers: { 'X-Service-API-Key': key }, body: '' });
    expect(answer.status).toBe(405);
    expect(answer.headers['allow']).toBe('POST');
  });

  it('a body that is not a GraphQL JSON request gets 400', async () => {
    const { sim, key } = smallSchool();
    const answer = await sim.handle({ method: 'POST', path: '/admin/graphql', headers: { 'x-service-api-key': key }, body: 'not json' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).errors[0].extensions.code).toBe('BAD_REQUEST');
  });

  it('a GraphQL syntax or validation error is a 200 with standard GraphQL errors and no data', async () => {
    const { sim, key } = smallSchool();
    const syntax = await postGraphQL(sim, 'mutation {', {}, key);
    expect(syntax.status).toBe(200);
    expect(syntax.json.data).toBeUndefined();
    expect(syntax.json.errors[0].message).toMatch(/Syntax Error/);
    const unknownField = await postGraphQL(sim, 'mutation { nope }', {}, key);
    expect(unknownField.json.errors[0].message).toMatch(/Cannot query field "nope"/);
  });
});

describe('Authentication (not shown in the spec: the simulator\'s configurable assumptions)', () => {
  it('a missing X-Service-API-Key gets 401 UNAUTHENTICATED', async () => {
    const { sim } = smallSchool();
    const answer = await postGraphQL(sim, CHEAP_QUERY);
    expect(answer.status).toBe(401);
    expect(answer.json.errors[0].extensions).toEqual({ code: 'UNAUTHENTICATED' });
    expect(sim.stats().unauthenticated).toBe(1);
  });

  it('an unknown key gets 401 UNAUTHENTICATED, and the message never echoes the key', async () => {
    const { sim } = smallSchool();
    const answer = await postGraphQL(sim, CHEAP_QUERY, {}, 'sk_live_not_registered');
    expect(answer.status).toBe(401);
    expect(JSON.stringify(answer.json)).not.toContain('sk_live_not_registered');
  });

  it('a key without the operation\'s scope gets 403 FORBIDDEN naming the required scopes', async () => {
    const { sim } = smallSchool();
    const readOnly = sim.seeder(sim.school().id).addApiKey({ scopes: ['coupons:read'] });
    const answer = await postGraphQL(sim, CREATE_COUPON, {}, readOnly);
    expect(answer.status).toBe(403);
    expect(answer.json.errors[0].extensions).toEqual({ code: 'FORBIDDEN', field: 'createCoupon', requiredScopes: ['coupons:write'] });
    expect(sim.school().tables.coupons.size).toBe(0);
    expect(sim.stats().fields['createCoupon']?.executions).toBe(0);
  });

  it.each([
    ['createConsultingService', 'courses:write', 'mutation { createConsultingService(input: { name: "A", courseId: "c" }) { errors } }'],
    ['bulkCancelConsultingMeetings', 'courses:write', 'mutation { bulkCancelConsultingMeetings(ids: []) { allSucceeded } }'],
    ['enrollStudentToConsultingMeeting', 'students:write or members:write', 'mutation { enrollStudentToConsultingMeeting(meetingId: "m", userId: "u") { errors } }'],
    ['rateConsultingMeeting', 'students:write or members:write', 'mutation { rateConsultingMeeting(meetingId: "m", userId: "u", score: 5) { errors } }'],
    ['revokeCouponGrant', 'coupons:write', 'mutation { revokeCouponGrant(grantId: "g") { errors } }'],
  ])('%s needs %s', async (field, scopes, document) => {
    const { sim } = smallSchool();
    const seeder = sim.seeder(sim.school().id);
    const without = seeder.addApiKey({ scopes: ['coupons:read', 'students:read'] });
    const denied = await postGraphQL(sim, document, {}, without);
    expect(denied.status).toBe(403);
    expect(denied.json.errors[0].extensions.requiredScopes.join(' or ')).toBe(scopes);
    for (const scope of scopes.split(' or ')) {
      const withScope = seeder.addApiKey({ scopes: [scope] });
      expect((await postGraphQL(sim, document, {}, withScope)).status).toBe(200);
    }
    expect(sim.stats().fields[field]?.executions).toBe(scopes.split(' or ').length);
  });

  it('students:write or members:write: either scope is enough', async () => {
    const { sim } = smallSchool();
    const seeder = sim.seeder(sim.school().id);
    const members = seeder.addApiKey({ scopes: ['members:write'] });
    const students = seeder.addApiKey({ scopes: ['students:write'] });
    const document = 'mutation { removeStudentFromConsultingMeeting(meetingId: "m", userId: "u") { errors } }';
    expect((await postGraphQL(sim, document, {}, members)).status).toBe(200);
    expect((await postGraphQL(sim, document, {}, students)).status).toBe(200);
  });

  it('the scope of updateSubscription (not shown) defaults to members:write and is configurable', async () => {
    const document = 'mutation { updateSubscription(id: "s", currentPeriodEnd: 1) { errors } }';
    const byDefault = smallSchool();
    const couponsOnly = byDefault.sim.seeder(byDefault.schoolId).addApiKey({ scopes: ['coupons:write'] });
    expect((await postGraphQL(byDefault.sim, document, {}, couponsOnly)).status).toBe(403);
    const configured = smallSchool({ auth: { updateSubscriptionScopes: ['coupons:write'] } });
    const key = configured.sim.seeder(configured.schoolId).addApiKey({ scopes: ['coupons:write'] });
    expect((await postGraphQL(configured.sim, document, {}, key)).status).toBe(200);
  });

  it('the statuses of auth failures are configurable (e.g. 200 with a GraphQL error)', async () => {
    const { sim } = smallSchool({ auth: { unauthenticatedStatus: 200, forbiddenStatus: 200 } });
    const readOnly = sim.seeder(sim.school().id).addApiKey({ scopes: [] });
    expect((await postGraphQL(sim, CHEAP_QUERY)).status).toBe(200);
    const forbidden = await postGraphQL(sim, CREATE_COUPON, {}, readOnly);
    expect(forbidden.status).toBe(200);
    expect(forbidden.json.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('keys are live secret keys with the prefix sk_live_', () => {
    const { sim, key } = smallSchool();
    expect(key).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    expect(() => sim.seeder(sim.school().id).addApiKey({ key: 'pk_test_1' })).toThrow(/sk_live_/);
  });

  it('the rate limit is checked before authentication: an unknown key is rate-limited too', async () => {
    const { sim } = smallSchool({ limits: { queries: { limit: 1, windowMs: 60_000 } } });
    expect((await postGraphQL(sim, CHEAP_QUERY, {}, 'sk_live_unknown')).status).toBe(401);
    expect((await postGraphQL(sim, CHEAP_QUERY, {}, 'sk_live_unknown')).status).toBe(429);
  });
});

describe('Errors: coded errors and GENERAL-001', () => {
  it('a coded error is HTTP 200 with data null and errors[0] = { message, path, extensions.error { code, message, details } }', async () => {
    const { sim, key } = smallSchool();
    const answer = await postGraphQL(sim, CHEAP_MUTATION, {}, key);
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      data: null,
      errors: [
        {
          message: 'consulting service not found',
          path: ['deleteConsultingService'],
          extensions: { error: { code: 'CONSULTING-001', message: 'consulting service not found', details: { serviceId: 'missing' } } },
        },
      ],
    });
  });

  it('an unexpected internal failure is GENERAL-001 and reveals nothing internal', async () => {
    const { sim, key } = smallSchool();
    sim.failNextExecution('deleteConsultingService');
    const answer = await postGraphQL(sim, CHEAP_MUTATION, {}, key);
    expect(answer.json.data).toBeNull();
    expect(answer.json.errors[0].extensions.error).toEqual({ code: 'GENERAL-001', message: 'Internal server error', details: {} });
    expect(JSON.stringify(answer.json)).not.toContain('injected');
    // Only the next execution fails.
    expect((await postGraphQL(sim, CHEAP_MUTATION, {}, key)).json.errors[0].extensions.error.code).toBe('CONSULTING-001');
  });
});

describe('School isolation', () => {
  it('IDs from another school are treated as not found', async () => {
    const { sim, key } = smallSchool();
    const other = sim.addSchool({ name: 'Other' });
    const course = other.addCourse();
    const service = other.addService({ courseId: course.id });
    const answer = await postGraphQL(sim, `mutation { deleteConsultingService(id: "${service.id}") { errors } }`, {}, key);
    expect(answer.json.errors[0].extensions.error.code).toBe('CONSULTING-001');
    expect(sim.school(other.schoolId).tables.services.get(service.id)?.discardedAt).toBeNull();
  });
});
