import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';

const API_KEY = 'sk_live_4f9a2c7e1b3d5f6a8c0e2b4d6f8a0c2e';

describe('bucketName: a budget per API key and operation type, named by a hash of the key', () => {
  it('never contains the key, nor any 8-character piece of it', () => {
    const name = bucketName(API_KEY, 'mutations');
    for (let start = 0; start + 8 <= API_KEY.length; start += 1) expect(name).not.toContain(API_KEY.slice(start, start + 8));
  });

  it('is short and stable: a 64-bit hex digest of the key, then the type', () => {
    expect(bucketName(API_KEY, 'queries')).toMatch(/^key-[0-9a-f]{16}:queries$/);
    expect(bucketName(API_KEY, 'queries')).toBe(bucketName(API_KEY, 'queries'));
  });

  it('separates mutations from queries, and one key from another', () => {
    const names = new Set([
      bucketName(API_KEY, 'mutations'),
      bucketName(API_KEY, 'queries'),
      bucketName(`${API_KEY}x`, 'mutations'),
      bucketName(`${API_KEY}x`, 'queries'),
    ]);
    expect(names.size).toBe(4);
  });
});
