import { describe, expect, it } from 'vitest';
import { GraphQLRequestError, GraphQLResponseError } from '../../src/index.js';
import type { FaultAction } from './support/fault-server.js';
import { answerOk, failureOf, faultClient, json, OPERATION_CASES, operationCase } from './support/operation-cases.js';
import { useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer();

/** The documented rate-limit error, here riding along on a nested field of an answer that holds the data. */
const rateLimitOn = (path: string[]) => ({ message: 'Rate limit exceeded', path, extensions: { code: 'RATE_LIMIT_EXCEEDED', operation_type: 'mutations', retry_after: 0 } });

/** An answer holding the operation's payload plus `errors`. */
function ranWithErrors(data: Record<string, unknown>, errors: unknown[], status = 200, headers: Record<string, string> = {}): FaultAction {
  return json({ data, errors }, status, headers);
}

describe('no re-send after any response showing the operation ran', () => {
  // Regression: a 200 whose body held createCoupon's payload AND an error with RATE_LIMIT_EXCEEDED
  // (on a nested field) was taken for a 429 and re-sent: createCoupon executed twice.
  it.each(OPERATION_CASES.map((item) => [item.field, item] as const))('%s: a 200 with its payload and a RATE_LIMIT_EXCEEDED error arrives once; GraphQLResponseError says it ran and carries the data', async (field, item) => {
    server.script(ranWithErrors(item.data, [rateLimitOn([field, 'errors'])]), answerOk);
    const { error } = await failureOf(() => item.call(faultClient(server, { maxRetries: 4 })));
    expect(server.arrivals(field)).toBe(1);
    expect(error).toBeInstanceOf(GraphQLResponseError);
    expect(error).toMatchObject({ ran: 'yes', executed: true, serverCode: 'RATE_LIMIT_EXCEEDED', data: item.data });
    expect((error as Error).message).toContain('ran');
  });

  it.each([
    ['a 429 status', 429, { 'Retry-After': '0' }],
    ['a 503 status (transient for an idempotent call otherwise)', 503, {}],
    ['a 502 status', 502, {}],
  ])('%s whose body holds the payload: not re-sent, even for an idempotent mutation', async (_case, status, headers) => {
    const grant = operationCase('createCouponGrant');
    server.script(ranWithErrors(grant.data, [rateLimitOn(['createCouponGrant'])], status, headers), answerOk);
    const { error } = await failureOf(() => grant.call(faultClient(server, { maxRetries: 4 })));
    expect(server.arrivals('createCouponGrant')).toBe(1);
    expect(error).toMatchObject({ name: 'GraphQLResponseError', executed: true });
  });

  it('request(): a 200 with data and a RATE_LIMIT_EXCEEDED error is not re-sent either', async () => {
    server.script(json({ data: { createCoupon: { errors: null } }, errors: [rateLimitOn(['createCoupon', 'coupon'])] }), answerOk);
    const { error } = await failureOf(() => faultClient(server).request('mutation { createCoupon(input: {name: "x", couponType: "percentage", amount: 1}) { errors } }', undefined, { idempotent: true }));
    expect(server.log).toHaveLength(1);
    expect(error).toMatchObject({ name: 'GraphQLResponseError', executed: true, data: { createCoupon: { errors: null } } });
  });

  it('a 429 whose data is null (nothing ran) is still waited out and sent again', async () => {
    const coupon = operationCase('createCoupon');
    server.script(json({ data: null, errors: [rateLimitOn(['createCoupon'])] }, 429), answerOk);
    await expect(coupon.call(faultClient(server, { limits: { mutations: { limit: 10, windowMs: 50 } } }))).resolves.toBeDefined();
    expect(server.arrivals('createCoupon')).toBe(2);
    expect(server.succeeded('createCoupon')).toBe(1);
  });

  it('an error riding along a payload is reported with executed: true and the data, not swallowed', async () => {
    const coupon = operationCase('createCoupon');
    server.script(ranWithErrors(coupon.data, [{ message: 'grants could not be loaded', path: ['createCoupon', 'coupon', 'grants'] }]));
    const { error } = await failureOf(() => coupon.call(faultClient(server)));
    expect(error).toMatchObject({ name: 'GraphQLResponseError', executed: true, messages: ['grants could not be loaded'] });
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ executed: true });
    expect(JSON.stringify(error)).not.toContain('VIP20X'); // the data stays out of JSON (it may hold request data)
  });
});

describe('executed for data: null with an error whose path names the mutation: it may have run', () => {
  // GraphQL nulls a non-null mutation field that raised, and with it `data`, whatever the resolver
  // had already done: the answer neither shows the operation ran nor that it did not. `executed`
  // stays false ("not shown to have run"); the message says it may have run, and it is never re-sent.
  const masked = (field: string) => ({ message: 'Unexpected error.', locations: [{ line: 1, column: 40 }], path: [field], extensions: { code: 'INTERNAL_SERVER_ERROR' } });

  it.each(OPERATION_CASES.map((item) => [item.field, item] as const))('%s: GraphQLResponseError { ran: unknown } saying it may have run, sent once even when safe to repeat', async (field, item) => {
    server.script(json({ data: null, errors: [masked(field)] }), answerOk);
    const { error } = await failureOf(() => item.call(faultClient(server, { maxRetries: 4 })));
    expect(server.arrivals(field)).toBe(1);
    expect(error).toBeInstanceOf(GraphQLResponseError);
    expect(error).not.toBeInstanceOf(GraphQLRequestError);
    expect(error).toMatchObject({ ran: 'unknown', executed: false, data: undefined, graphQLErrors: [{ path: [field] }] });
    expect((error as Error).message).toContain(`Unexpected error. It may have run (the error stands at ${field}): it was not sent again; check its effects before repeating it.`);
  });

  it('a nullable root field nulled by its error ({ updateSubscription: null }): the same', async () => {
    server.script(json({ data: { updateSubscription: null }, errors: [masked('updateSubscription')] }), answerOk);
    const { error } = await failureOf(() => operationCase('updateSubscription').call(faultClient(server, { maxRetries: 4 })));
    expect(server.arrivals('updateSubscription')).toBe(1);
    expect(error).toMatchObject({ name: 'GraphQLResponseError', executed: false });
    expect((error as Error).message).toContain('It may have run (the error stands at updateSubscription)');
  });

  it('a query through request() that failed while running: nothing to have run, the message does not say so', async () => {
    server.script(json({ data: null, errors: [masked('coupons')] }));
    const { error } = await failureOf(() => faultClient(server, { maxRetries: 0 }).request('query { coupons { id } }'));
    expect(error).toMatchObject({ name: 'GraphQLResponseError', executed: false });
    expect((error as Error).message).toBe('Failed to run the request: the server reported a GraphQL error: Unexpected error.');
  });
});
