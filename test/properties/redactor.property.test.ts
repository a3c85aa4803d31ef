import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdminApiError, AdminClient, ERROR_CODES } from '../../src/index.js';
import { Redactor } from '../../src/errors/redactor.js';

const MARKER = '[redacted]';
const anyText = fc.string({ unit: 'binary', maxLength: 80 });
/** The documented key format: `sk_live_` and a secret part. */
const liveKey = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'), minLength: 8, maxLength: 40 }).map((secret) => `sk_live_${secret}`);
/** A self-hosted deployment's key in another format: letters and digits only. */
const otherKey = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), minLength: 12, maxLength: 40 });
/** Printable ASCII (0x20-0x7e). */
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), minLength: 8, maxLength: 40 });
/** A `sk_live_` key whose secret part holds any printable ASCII (base64 `+/=`, dots, spaces...). */
const printableLiveKey = printable.map((secret) => `sk_live_${secret}`);
/** A key that can go out as a header value: printable ASCII, no space at either end. */
const headerKey = printable.map((key) => key.trim()).filter((key) => key.length >= 8);
/** An email address and the same address in a random letter case (emails match case-insensitively). */
const emailInRandomCase = fc.emailAddress().chain((email) =>
  fc.array(fc.boolean(), { minLength: email.length, maxLength: email.length }).map((upper) => ({
    email,
    echoed: [...email].map((char, index) => (upper[index] === true ? char.toUpperCase() : char.toLowerCase())).join(''),
  })),
);
/** Lower-cases ASCII letters only, so a check cannot be fooled by Unicode case mappings of random text. */
const lowerAscii = (text: string): string => text.replace(/[A-Z]/g, (char) => char.toLowerCase());

/**
 * A request variable worth hiding: 3+ characters (shorter ones are left alone by design). Values
 * that are part of the marker itself ("act", "[re") or hold its brackets would "appear" in any
 * redacted text; no member data looks like that.
 */
const variableValue = fc.string({ unit: 'binary', minLength: 3, maxLength: 30 }).filter((value) => !/[[\]]/.test(value) && !MARKER.includes(value));

/** Text with `secrets` spliced in at random places, possibly several times and back to back. */
function around(secrets: fc.Arbitrary<string[]>): fc.Arbitrary<{ secrets: string[]; text: string }> {
  return secrets.chain((values) =>
    fc.array(fc.oneof(anyText, fc.constantFrom(...values)), { minLength: 1, maxLength: 10 }).map((parts) => ({ secrets: values, text: [...parts, values[0]].join('') })),
  );
}

describe('property: the Redactor never lets a secret through', () => {
  it('secret(): a live key (even one it was not given) never survives, whatever surrounds it', () => {
    fc.assert(
      fc.property(around(fc.tuple(liveKey, liveKey)), ({ secrets: [configured = '', echoed = ''], text }) => {
        const out = new Redactor([configured]).secret(text);
        expect(out).not.toContain(configured);
        expect(out).not.toContain(echoed);
        expect(out).not.toMatch(/sk_live_[A-Za-z0-9_-]/);
      }),
      { numRuns: 1_000 },
    );
  });

  it('secret(): a configured key of another format never survives', () => {
    fc.assert(
      fc.property(around(fc.tuple(otherKey)), ({ secrets: [key = ''], text }) => {
        expect(new Redactor([key]).secret(text)).not.toContain(key);
      }),
      { numRuns: 1_000 },
    );
  });

  // Regression: the sk_live_ pattern ran first and stopped at the first character outside
  // [A-Za-z0-9_-], so the rest of such a key was left in the text.
  it('secret(): a configured key over printable ASCII is replaced whole, exactly first, whatever its characters', () => {
    fc.assert(
      fc.property(fc.oneof(printableLiveKey, printable), anyText, anyText, (key, before, after) => {
        const redactor = new Redactor([key]);
        expect(redactor.secret(`\u0000${key}\u0000`)).toBe('\u0000[redacted]\u0000');
        expect(redactor.secret(`${before}${key}${after}`)).not.toContain(key);
      }),
      { numRuns: 1_000 },
    );
  });

  // Regression: variables were matched exactly, so an email echoed in another letter case survived.
  it('text(): an email variable never survives in any letter case, whatever surrounds it', () => {
    fc.assert(
      fc.property(emailInRandomCase, fc.array(anyText, { minLength: 1, maxLength: 4 }), ({ email, echoed }, parts) => {
        const out = new Redactor(['sk_live_x'], { member: { email } }).text(parts.join(echoed) + echoed);
        expect(lowerAscii(out)).not.toContain(lowerAscii(email));
      }),
      { numRuns: 1_000 },
    );
  });

  it('text(): neither the key nor any request variable (nested anywhere in the variables) survives', () => {
    const secrets = fc.tuple(liveKey, variableValue, variableValue);
    fc.assert(
      fc.property(around(secrets), ({ secrets: [key = '', email = '', name = ''], text }) => {
        const redactor = new Redactor([key], { couponId: 'c', member: { email }, rows: [{ title: name }] });
        const out = redactor.text(text);
        for (const secret of [key, email, name]) expect(out).not.toContain(secret);
      }),
      { numRuns: 1_000 },
    );
  });

  it('deep(): no string anywhere inside a JSON value keeps the key or a variable', () => {
    fc.assert(
      fc.property(liveKey, variableValue, fc.jsonValue({ maxDepth: 3 }), (key, email, json) => {
        const seeded = { json, message: `key ${key} for ${email}`, nested: [{ detail: `${email}${key}${email}` }] };
        for (const leaf of stringLeaves(new Redactor([key], { email }).deep(seeded))) {
          expect(leaf).not.toContain(key);
          expect(leaf).not.toContain(email);
        }
      }),
      { numRuns: 500 },
    );
  });
});

function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringLeaves);
  return [];
}

/** Answers every request with one hostile body echoing `echo` (chosen per run) and counts nothing else. */
function echoingClient(apiKey: string, shape: number, echo: string): AdminClient {
  const bodies: [number, unknown][] = [
    [200, { data: null, errors: [{ message: echo, extensions: { code: echo } }] }],
    [200, { data: { createCouponGrant: { grant: null, created: null, errors: [echo] } } }],
    [200, { data: null, errors: [{ message: echo, path: [echo], extensions: { error: { code: echo, message: `${echo} valid_options=${echo},x`, details: { [echo]: echo } } } }] }],
    [200, { data: null, errors: [{ message: echo, path: ['createCouponGrant'], extensions: { error: { code: 'ENROLLMENT-002', message: `${echo} valid_options=${echo}`, details: { echo } } } }] }],
    [401, { errors: [{ message: echo, extensions: { code: 'UNAUTHENTICATED' } }] }],
    [429, { errors: [{ message: echo, extensions: { code: 'RATE_LIMIT_EXCEEDED', detail: echo } }] }],
  ];
  const [status, body] = bodies[shape % bodies.length] as [number, unknown];
  return new AdminClient({
    apiKey,
    baseUrl: 'https://school.example',
    limits: false,
    maxRetries: 0,
    maxRateLimitWaitMs: 0,
    fetch: async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  });
}

describe('property: errors never show the key or a member email, and never garble the SDK\'s wording', () => {
  it('keys over printable ASCII and emails in random case, echoed anywhere a server can: absent from message, stack and JSON (and the key from util.inspect)', async () => {
    await fc.assert(
      fc.asyncProperty(headerKey, emailInRandomCase, fc.nat(), anyText, async (apiKey, { email, echoed }, shape, noise) => {
        const echo = `${noise} ${apiKey} ${echoed} ${noise}`;
        const error = await echoingClient(apiKey, shape, echo).grantCoupon('c-1', { email }).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(AdminApiError);
        const { message, stack = '' } = error as Error;
        for (const text of [message, stack, JSON.stringify(error)]) {
          expect(text).not.toContain(apiKey);
          expect(lowerAscii(text)).not.toContain(lowerAscii(email));
        }
        expect(inspect(error, { depth: 20 })).not.toContain(apiKey);
      }),
      { numRuns: 300 },
    );
  });

  // Regression: the finished message was redacted, so variables that are ordinary words of the
  // SDK's message ("coupon", "type", "percentage") turned it into "[redacted]" soup.
  it('variables that are words of the SDK\'s own message, in any case, leave that message intact', async () => {
    const { meaning, remedy } = ERROR_CODES['COUPON-002'];
    const expected = `Failed to create the coupon: ${meaning} (COUPON-002). ${remedy}`;
    const words = [...new Set(expected.split(/[^A-Za-z0-9_-]+/).filter((word) => word.length >= 3))];
    const body = JSON.stringify({ data: null, errors: [{ message: 'invalid', path: ['createCoupon'], extensions: { error: { code: 'COUPON-002', message: 'invalid' } } }] });
    await fc.assert(
      fc.asyncProperty(fc.subarray(words, { minLength: 1 }), fc.boolean(), async (chosen, upper) => {
        const [name = 'x', ...rest] = chosen.map((word) => (upper ? word.toUpperCase() : word));
        const admin = new AdminClient({
          apiKey: 'sk_live_wording_test_key',
          baseUrl: 'https://school.example',
          limits: false,
          fetch: async () => new Response(body, { headers: { 'content-type': 'application/json' } }),
        });
        const error = await admin.createCoupon({ name, couponType: 'percentage', amount: 20, description: rest.join(' '), itemIds: rest }).catch((caught: unknown) => caught);
        expect((error as Error).message).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});
