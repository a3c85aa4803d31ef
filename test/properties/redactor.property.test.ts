import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/errors/redactor.js';

const MARKER = '[redacted]';
const anyText = fc.string({ unit: 'binary', maxLength: 80 });
/** The documented key format: `sk_live_` and a secret part. */
const liveKey = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'), minLength: 8, maxLength: 40 }).map((secret) => `sk_live_${secret}`);
/** A self-hosted deployment's key in another format: letters and digits only. */
const otherKey = fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), minLength: 12, maxLength: 40 });
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
