import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { sha256Hex } from '../../src/rate-limit/sha256.js';

const nodeSha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('sha256Hex: the bucket-name digest, the same in every runtime (workerd has no node:crypto)', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it("equals node:crypto's SHA-256 for any text, across block boundaries and multi-byte characters", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ minLength: 50, maxLength: 140 })), (text) => {
        expect(sha256Hex(text)).toBe(nodeSha256(text));
      }),
      { numRuns: 500 },
    );
    for (let length = 0; length <= 130; length += 1) expect(sha256Hex('k'.repeat(length))).toBe(nodeSha256('k'.repeat(length)));
  });

  it('keeps the bucket names the node:crypto version gave, so a shared Redis budget stays the same', () => {
    const key = 'sk_live_4f9a2c7e1b3d5f6a8c0e2b4d6f8a0c2e';
    expect(bucketName(key, 'mutations')).toBe(`key-${nodeSha256(`school-admin-sdk rate-limit bucket\n${key}`).slice(0, 16)}:mutations`);
  });
});
