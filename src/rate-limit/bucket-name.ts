import { sha256Hex } from './sha256.js';

/** The two budgets of an API key, as the server counts them. */
export type RateLimitedOperationType = 'mutations' | 'queries';

/**
 * Names the rate-limit budget of one API key and one operation type, for a `PermitStore`:
 * the first 16 hex digits (64 bits) of a SHA-256 of the key, then the type. The key itself never
 * appears, so bucket names are safe in logs and in a shared Redis.
 *
 * @example
 * ```ts
 * bucketName(process.env.ADMIN_API_KEY!, 'mutations'); // 'key-3f2a9c0d1b7e4a65:mutations'
 * ```
 */
export function bucketName(apiKey: string, operationType: RateLimitedOperationType): string {
  return bucketNames(apiKey)[operationType];
}

/**
 * Both bucket names of a key ({@link bucketName}), from one digest. Each name is one flat string:
 * a client holds its two names for its lifetime, and a name built by concatenation would keep
 * its pieces and the whole 64-digit digest alive with it (a process may hold thousands of keys).
 */
export function bucketNames(apiKey: string): Record<RateLimitedOperationType, string> {
  // A fixed label in the hashed text keeps these digests apart from other SHA-256 uses of the key.
  // Plain JavaScript, not node:crypto: the same names in every runtime, workerd included.
  const key = sha256Hex(`school-admin-sdk rate-limit bucket\n${apiKey}`).slice(0, 16);
  return { mutations: ['key-', key, ':mutations'].join(''), queries: ['key-', key, ':queries'].join('') };
}
