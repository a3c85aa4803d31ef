import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AdminApiError, AdminClient, CodedError, ERROR_CODES, GraphQLResponseError, InvalidInputError, PayloadError } from '../../src/index.js';
import { fixedAnswerClient } from '../support/fixed-answer-client.js';

const EMAIL = 'grace.hopper@example.com';
/** The member's email as a server may echo it: emails match case-insensitively (spec, createCouponGrant). */
const SHOUTED = 'GRACE.Hopper@Example.COM';

/** A client whose fetch answers every request with `body`. */
function answering(body: unknown, options: { apiKey?: string; status?: number } = {}): { admin: AdminClient } {
  return fixedAnswerClient(body, options);
}

async function failure(call: Promise<unknown>): Promise<AdminApiError> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AdminApiError);
  return error as AdminApiError;
}

/** Every text an error shows: message, stack, JSON.stringify, util.inspect. */
function shown(error: Error): { message: string; stack: string; json: string; inspected: string } {
  return { message: error.message, stack: error.stack ?? '', json: JSON.stringify(error), inspected: inspect(error, { depth: 20, showHidden: true }) };
}

describe('redaction: the exact key first, whatever its characters', () => {
  // Regression: the sk_live_ pattern ran before the exact key, so a key with a character outside
  // [A-Za-z0-9_-] lost only its head and its tail leaked.
  it.each([
    ['base64 characters (+ / =)', 'sk_live_AbC+dEf/GhI=jKl'],
    ['a dot', 'sk_live_abcdef.ghijklmn'],
    ['a tilde and a colon', 'sk_live_abc~def:ghi'],
  ])('a key with %s echoed by the server is hidden whole, tail included', async (_case, key) => {
    const tail = key.slice(-6);
    const { admin } = answering({ data: null, errors: [{ message: `bad key ${key} here` }] }, { apiKey: key });
    const error = await failure(admin.request('query { __typename }'));
    for (const text of Object.values(shown(error))) {
      expect(text).not.toContain(key);
      expect(text).not.toContain(tail);
    }
    expect(error.message).toContain('bad key [redacted] here');
  });
});

describe('redaction: member emails case-insensitively', () => {
  // Regression: the email was matched exactly, so an echo in another letter case leaked into the
  // message, the stack and JSON.stringify.
  it.each([
    ['PayloadError', { data: { createCouponGrant: { grant: null, created: null, errors: [`no member ${SHOUTED}`] } } }, PayloadError],
    ['GraphQLResponseError', { data: null, errors: [{ message: `no member ${SHOUTED}` }] }, GraphQLResponseError],
    ['CodedError (unknown code)', { data: null, errors: [{ message: 'm', extensions: { error: { code: `X-${SHOUTED}`, message: `no member ${SHOUTED}` } } }] }, CodedError],
  ])('%s: an email echoed in another case is in no message, stack or JSON', async (_case, body, errorClass) => {
    const error = await failure(answering(body).admin.grantCoupon('c-1', { email: EMAIL }));
    expect(error).toBeInstanceOf(errorClass);
    const { message, stack, json } = shown(error);
    for (const text of [message, stack, json]) expect(text.toLowerCase()).not.toContain(EMAIL);
  });
});

describe('redaction: every toJSON field', () => {
  // Regression: JSON.stringify(error) carried variables echoed into a coded error's path, an
  // unknown code, validOptions and serverCode.
  it('CodedError: path, an unknown code, validOptions and details hold no request variable', async () => {
    const body = {
      data: null,
      errors: [{ message: 'm', path: ['createCouponGrant', EMAIL], extensions: { error: { code: `ODD-${EMAIL}`, message: `valid_options=${EMAIL},x`, details: { [EMAIL]: EMAIL } } } }],
    };
    const error = await failure(answering(body).admin.grantCoupon('c-1', { email: EMAIL }));
    expect(error).toBeInstanceOf(CodedError);
    expect((error as CodedError).validOptions).toEqual([EMAIL, 'x']); // the field itself keeps what the server sent
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(JSON.stringify(json)).not.toContain(EMAIL);
    expect(json).toMatchObject({ path: ['createCouponGrant', '[redacted]'], code: 'ODD-[redacted]', validOptions: ['[redacted]', 'x'] });
  });

  it('GraphQLResponseError: serverCode holds no request variable', async () => {
    const body = { data: null, errors: [{ message: 'm', extensions: { code: `E_${EMAIL}` } }] };
    const error = await failure(answering(body).admin.grantCoupon('c-1', { email: EMAIL }));
    expect(error).toBeInstanceOf(GraphQLResponseError);
    expect(JSON.stringify(error)).not.toContain(EMAIL);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ serverCode: 'E_[redacted]' });
  });

  it('a documented code stays as it is in JSON even when a variable is part of it', async () => {
    const body = { data: null, errors: [{ message: 'm', path: ['createCoupon'], extensions: { error: { code: 'COUPON-002', message: 'bad type' } } }] };
    const error = await failure(answering(body).admin.createCoupon({ name: 'COUPON', couponType: 'percentage', amount: 20 }));
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ code: 'COUPON-002' });
  });
});

describe('redaction: only server-provided text, never the SDK\'s own wording', () => {
  // Regression: the finished message was redacted, so variables that are ordinary words garbled it:
  // "Failed to create the [redacted]: the [redacted] type is invalid (COUPON-002). Use [redacted]Type ...".
  it('COUPON-002 with name "coupon" and couponType "percentage" reads as written', async () => {
    const body = { data: null, errors: [{ message: 'invalid type', path: ['createCoupon'], extensions: { error: { code: 'COUPON-002', message: 'invalid type' } } }] };
    const error = await failure(answering(body).admin.createCoupon({ name: 'coupon', couponType: 'percentage', amount: 20 }));
    const { meaning, remedy } = ERROR_CODES['COUPON-002'];
    expect(error.message).toBe(`Failed to create the coupon: ${meaning} (COUPON-002). ${remedy}`);
  });

  it('a server message quoting a variable is redacted inside the SDK wording, which stays intact', async () => {
    const body = { data: null, errors: [{ message: 'the coupon named coupon exists' }] };
    const error = await failure(answering(body).admin.createCoupon({ name: 'coupon', couponType: 'percentage', amount: 20 }));
    expect(error.message).toBe('Failed to create the coupon: the server reported a GraphQL error: the [redacted] named [redacted] exists');
  });
});

describe('a key that cannot be a header value is refused at construction', () => {
  // Regression: a key with a newline failed header validation at send time as a NetworkError
  // "may have reached the server", with the key's tail in the cause chain.
  it.each([
    ['a newline', 'sk_live_abcdef\nghijkl'],
    ['a trailing newline (read from a file)', 'sk_live_abcdefghijkl\n'],
    ['a NUL byte', 'sk_live_abc\u0000defghi'],
    ['a control character', 'sk_live_abc\u0007defghi'],
    ['a non-ASCII letter', 'sk_live_abcdéfghijk'],
    ['an emoji', 'sk_live_abcdef😀ghij'],
    ['a leading space', ' sk_live_abcdefghijkl'],
  ])('%s: InvalidInputError naming apiKey, with no trace of the key, and nothing sent', (_case, key) => {
    let sent = 0;
    const build = () =>
      new AdminClient({
        apiKey: key,
        baseUrl: 'https://school.example',
        fetch: async () => {
          sent += 1;
          return new Response('{}');
        },
      });
    let error: unknown;
    try {
      build();
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: 'apiKey' });
    for (const text of Object.values(shown(error as Error))) {
      expect(text).not.toContain('abc');
      expect(text).not.toContain('ghi');
    }
    expect(sent).toBe(0);
  });

  it('any printable ASCII key is accepted and sent as is', async () => {
    const key = 'sk_live_A+b/C=d.e~f:g!h#i$j%k&l*m';
    let header: string | null = null;
    const admin = new AdminClient({
      apiKey: key,
      baseUrl: 'https://school.example',
      limits: false,
      fetch: async (_input, init) => {
        header = new Headers(init?.headers).get('x-service-api-key');
        return new Response(JSON.stringify({ data: { __typename: 'Query' } }), { headers: { 'content-type': 'application/json' } });
      },
    });
    await admin.request('query { __typename }');
    expect(header).toBe(key);
  });
});
