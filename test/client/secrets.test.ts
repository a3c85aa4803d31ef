import { inspect } from 'node:util';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AdminApiError, type AdminClient } from '../../src/index.js';
import { Redactor } from '../../src/errors/redactor.js';
import { API_KEY, BASE_URL, useScriptedAdminApi, codedErrorBody, testClient } from '../support/scripted-admin-api.js';

const api = useScriptedAdminApi();

const EMAIL = 'grace.hopper@example.com';
/** A hostile server echoes the key and the member's email everywhere it can. */
const echo = `member ${EMAIL} with key ${API_KEY}`;
const grant = (admin: AdminClient) => admin.grantCoupon('c-1', { email: EMAIL });

const scenarios: [errorClass: string, arrange: () => void, call: (admin: AdminClient) => Promise<unknown>, options?: Parameters<typeof testClient>[0]][] = [
  ['CodedError', () => api.answer({ body: codedErrorBody('createCouponGrant', 'ENROLLMENT-002', echo, { email: EMAIL, key: API_KEY }) }), grant],
  ['CodedError (local)', () => undefined, (admin) => admin.grantCoupon('c-1', { email: EMAIL, userId: 'u' } as never)],
  ['PayloadError', () => api.data({ createCouponGrant: { grant: null, created: null, errors: [echo] } }), grant],
  ['RateLimitError', () => api.answer({ status: 429, headers: { 'Retry-After': '1' }, body: { errors: [{ message: echo, extensions: { code: 'RATE_LIMIT_EXCEEDED', operation_type: 'mutations', limit: 200, retry_after: 1, reset_at: 1 } }] } }), grant, { maxRetries: 0 }],
  ['AuthenticationError', () => api.answer({ status: 401, body: { errors: [{ message: echo }] } }), grant],
  ['HttpError', () => api.answer({ status: 500, text: `<html>${echo}</html>` }), grant],
  ['NetworkError', () => api.server.use(http.post(`${BASE_URL}/admin/graphql`, () => HttpResponse.error())), grant, { maxRetries: 0 }],
  ['TimeoutError', () => api.server.use(http.post(`${BASE_URL}/admin/graphql`, async () => { await delay('infinite'); return HttpResponse.json({}); })), grant, { maxRetries: 0, timeoutMs: 50 }],
  ['InvalidResponseError', () => api.answer({ text: `{"data": ${echo}` }), grant, { maxRetries: 0 }],
  ['GraphQLResponseError', () => api.answer({ body: { data: null, errors: [{ message: echo }] } }), grant],
  ['InvalidInputError', () => undefined, (admin) => admin.createCoupon({ name: EMAIL, couponType: 'percentage', amount: 500, description: API_KEY })],
];

describe('secrets never reach errors', () => {
  it.each(scenarios)('%s: message, stack and JSON.stringify contain neither the key nor the email; util.inspect not the key', async (errorClass, arrange, call, options) => {
    arrange();
    const error = await call(testClient(options)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdminApiError);
    expect((error as Error).name).toBe(errorClass.replace(' (local)', ''));
    const { message, stack } = error as Error;
    const json = JSON.stringify(error);
    for (const text of [message, stack ?? '', json]) {
      expect(text).not.toContain(API_KEY);
      expect(text).not.toContain(EMAIL);
    }
    expect(inspect(error, { depth: 10 })).not.toContain(API_KEY);
    expect(JSON.parse(json)).toMatchObject({ name: (error as Error).name, operation: expect.any(String) });
  });
});

// The message builders redact the server's parts (`redactor.text()`), so most messages never hold a
// key by the time they reach AdminApiError. The caller's own input can: these cases have no other
// layer than the finished message's stripping in errors/admin-api-error.ts.
describe('secrets never reach errors: the finished message loses every key, whoever built it (errors/admin-api-error.ts)', () => {
  const pastedHeader = { [`Authorization: Bearer ${API_KEY}`]: 'x' };

  it('a header line pasted as a header name (constructor): InvalidInputError whose message and stack hold no key', () => {
    const error = (() => {
      try {
        return testClient({ headers: pastedHeader });
      } catch (caught) {
        return caught;
      }
    })() as Error;
    expect(error.name).toBe('InvalidInputError');
    expect(error.message).toContain('is not a valid header name');
    expect(error.message).toContain('[redacted]');
    for (const text of [error.message, error.stack ?? '', JSON.stringify(error)]) expect(text).not.toContain(API_KEY);
  });

  it("the same in a call's headers: the message names the problem, not the key", async () => {
    const error = await testClient().grantCoupon('c-1', { email: EMAIL }, { headers: pastedHeader }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'InvalidInputError', field: 'headers' });
    for (const text of [(error as Error).message, (error as Error).stack ?? '']) expect(text).not.toContain(API_KEY);
    expect(api.requests).toHaveLength(0);
  });

  it('AdminApiError alone strips the configured key (any shape) and any sk_live_ key from the message it is given', () => {
    const configured = 'plain-secret-0123';
    const error = new AdminApiError(`Failed to x: ${configured} and ${API_KEY} leaked. Remedy.`, { operation: 'x', redactor: new Redactor([configured]) });
    expect(error.message).toBe('Failed to x: [redacted] and [redacted] leaked. Remedy.');
    expect(error.stack).not.toContain(configured);
    expect(error.stack).not.toContain(API_KEY);
  });
});
