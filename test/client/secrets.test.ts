import { inspect } from 'node:util';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AdminApiError, type AdminClient } from '../../src/index.js';
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
