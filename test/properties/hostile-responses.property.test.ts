import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdminApiError, AdminClient } from '../../src/index.js';
import { API_KEY } from '../support/scripted-admin-api.js';

const EMAIL = 'katherine.johnson@example.com';
/** Strings a hostile server would send: anything, or text echoing the key and the member's email. */
const hostileText = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(`key ${API_KEY}`, `member ${EMAIL}`, `${EMAIL}:${API_KEY}`));
const anyJson = fc.jsonValue({ maxDepth: 3 });
const loose = <T>(shape: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.record(shape, { requiredKeys: [] });

/**
 * Identifiers the server sends (codes, paths, details property names): arbitrary, but not echoing
 * the key; the echoing cases are the regression tests below.
 */
const plainText = fc.string({ maxLength: 16 });
const errorEntry = loose({
  message: fc.oneof(hostileText, anyJson),
  path: fc.oneof(fc.array(fc.oneof(plainText, fc.integer())), anyJson),
  extensions: fc.oneof(
    anyJson,
    loose({
      code: fc.oneof(fc.constantFrom('RATE_LIMIT_EXCEEDED', 'UNAUTHENTICATED', 'FORBIDDEN'), plainText),
      operation_type: fc.oneof(fc.constantFrom('mutations', 'queries'), anyJson),
      retry_after: fc.oneof(fc.integer({ min: -5, max: 5 }), anyJson),
      limit: fc.oneof(fc.integer(), anyJson),
      error: loose({ code: fc.oneof(fc.constantFrom('COUPON-001', 'MEETING-012', 'GENERAL-001'), plainText, anyJson), message: fc.oneof(hostileText, anyJson), details: fc.oneof(anyJson, fc.dictionary(plainText, hostileText)) }),
    }),
  ),
});
/** Payload `errors`: a list of strings or null as documented, or anything a broken server sends. */
const payload = loose({ grant: fc.oneof(anyJson, loose({ id: hostileText, status: hostileText, grantedAt: fc.oneof(fc.integer(), fc.stringMatching(/^\d{1,12}$/)) })), created: anyJson, errors: fc.oneof(fc.constant(null), fc.array(hostileText), anyJson) });
const graphqlBody = loose({ data: fc.oneof(anyJson, loose({ createCouponGrant: fc.oneof(anyJson, payload) })), errors: fc.oneof(anyJson, fc.array(errorEntry, { maxLength: 3 })), extensions: anyJson });
const bodyText = fc.oneof(
  graphqlBody.map((body) => JSON.stringify(body)),
  anyJson.map((body) => JSON.stringify(body)),
  fc.string({ unit: 'binary', maxLength: 200 }),
  graphqlBody.map((body) => JSON.stringify(body)).chain((text) => fc.nat(text.length).map((cut) => text.slice(0, cut))),
);
const response = fc.record({
  status: fc.oneof(fc.constantFrom(200, 201, 204, 400, 401, 403, 404, 409, 429, 500, 502, 503, 504), fc.integer({ min: 200, max: 599 })),
  contentType: fc.constantFrom('application/json', 'application/graphql-response+json', 'text/html', 'text/plain', ''),
  retryAfter: fc.option(fc.oneof(fc.stringMatching(/^\d{1,4}$/), hostileText), { nil: undefined }),
  body: bodyText,
});
type HostileResponse = typeof response extends fc.Arbitrary<infer T> ? T : never;

function clientAnswering(answer: HostileResponse): AdminClient {
  return new AdminClient({
    apiKey: API_KEY,
    baseUrl: 'https://hostile.example',
    limits: false,
    maxRetries: 0,
    maxRateLimitWaitMs: 0,
    fetch: async () => {
      const headers = new Headers(answer.contentType === '' ? {} : { 'content-type': answer.contentType });
      if (answer.retryAfter !== undefined) headers.set('retry-after', answer.retryAfter.replace(/[^\t\x20-\x7e]/g, ''));
      const nullBody = [204, 205, 304].includes(answer.status);
      return new Response(nullBody ? null : answer.body, { status: answer.status, headers });
    },
  });
}

describe('property: any response ends in a result or a typed error, never a crash or a leak', () => {
  it('grantCoupon against arbitrary status, headers and bodies: resolves with a grant, or rejects with an AdminApiError free of the key and the email', async () => {
    await fc.assert(
      fc.asyncProperty(response, async (answer) => {
        let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
        try {
          outcome = { ok: true, value: await clientAnswering(answer).grantCoupon('c-1', { email: EMAIL }) };
        } catch (error) {
          outcome = { ok: false, error };
        }
        if (outcome.ok) {
          expect(outcome.value).toMatchObject({ grant: expect.anything(), created: expect.any(Boolean) });
          return;
        }
        expect(outcome.error).toBeInstanceOf(AdminApiError);
        const { message, stack = '' } = outcome.error as Error;
        for (const text of [message, stack, JSON.stringify(outcome.error)]) {
          expect(text).not.toContain(API_KEY);
          expect(text).not.toContain(EMAIL);
        }
      }),
      { numRuns: 1_500 },
    );
  });

  // Regression: every piece of server text an error keeps is redacted, not only messages and the
  // string values of `details`: the error `code`, `path` entries, `extensions.code` (serverCode)
  // and the property NAMES of `details`.
  const echoed = `key ${API_KEY}`;
  it.each([
    ['an unknown error code', { data: null, errors: [{ message: 'm', extensions: { error: { code: echoed, message: 'm', details: {} } } }] }],
    ['a details property name', { data: null, errors: [{ message: 'm', extensions: { error: { code: 'COUPON-001', message: 'm', details: { [echoed]: '' } } } }] }],
    ['a path entry of a coded error', { data: null, errors: [{ message: 'm', path: [echoed], extensions: { error: { code: 'COUPON-001', message: 'm', details: {} } } }] }],
    ['extensions.code of a GraphQL error (serverCode)', { data: null, errors: [{ message: 'm', extensions: { code: echoed } }] }],
  ])('the key echoed in %s does not reach JSON.stringify or util.inspect of the error', async (_where, body) => {
    const error = await clientAnswering({ status: 200, contentType: 'application/json', retryAfter: undefined, body: JSON.stringify(body) })
      .grantCoupon('c-1', { userId: 'u-1' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdminApiError);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
    expect(inspect(error, { depth: 10 })).not.toContain(API_KEY);
  });

  // Regression: a payload `errors` list was trusted to hold strings: `[null]` or `[42, {}]` crashed
  // with a bare TypeError and a string instead of a list ("oops") became "o", "o", "p", "s".
  it.each([
    ['[null]', [null]],
    ['[42, {}]', [42, {}]],
    ['"oops" (not a list)', 'oops'],
  ])('payload errors %s with no grant end in an AdminApiError with string messages', async (_shape, errors) => {
    const body = JSON.stringify({ data: { createCouponGrant: { grant: null, created: null, errors } } });
    const error = await clientAnswering({ status: 200, contentType: 'application/json', retryAfter: undefined, body })
      .grantCoupon('c-1', { userId: 'u-1' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AdminApiError);
    const messages = (error as { messages?: unknown }).messages;
    if (messages === undefined) return;
    expect(Array.isArray(messages) && messages.every((message) => typeof message === 'string')).toBe(true);
    if (typeof errors === 'string') expect(messages).toEqual([errors]); // never split into characters
  });

  // Regression: normalizeIntegers and the Redactor recursed once per nesting level, so a deeply
  // nested JSON value (about 200 KB) overflowed the stack with a bare RangeError; both stop at a
  // bounded depth now.
  it.each([
    ['in the payload (normalizeIntegers)', (nested: string) => `{"data":{"createCouponGrant":{"grant":{"id":"g","status":"granted","grantedAt":1,"x":${nested}},"created":true,"errors":null}}}`],
    ['in coded-error details (Redactor.secretDeep)', (nested: string) => `{"data":null,"errors":[{"message":"m","extensions":{"error":{"code":"COUPON-001","message":"m","details":{"x":${nested}}}}}]}`],
  ])('100,000 nested arrays %s give a result or an AdminApiError', async (_where, build) => {
    const depth = 100_000;
    const body = build(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    const outcome = await clientAnswering({ status: 200, contentType: 'application/json', retryAfter: undefined, body })
      .grantCoupon('c-1', { userId: 'u-1' })
      .then(() => 'resolved', (caught: unknown) => caught);
    expect(outcome === 'resolved' || outcome instanceof AdminApiError).toBe(true);
  });
});
