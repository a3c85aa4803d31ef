import { permitKeys } from './permit-keys.js';

/**
 * The part of a key Redis Cluster hashes to pick its slot: the text between the first `{` and the
 * first `}` after it when that is not empty, else the whole key (the cluster specification's "hash
 * tags").
 *
 * @example
 * ```ts
 * hashTag('school-admin-sdk:{key-3f2a:mutations}:in-flight'); // 'key-3f2a:mutations'
 * hashTag('a{}b'); // 'a{}b'
 * ```
 */
export function hashTag(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  return close === -1 || close === open + 1 ? key : key.slice(open + 1, close);
}

/**
 * True when, under `keyPrefix`, the keys of one bucket hash alike, so that a Redis Cluster keeps
 * them in one slot as the store's scripts require. Only an empty hash tag (`{}`) in the prefix
 * breaks this; a prefix with a tag of its own keeps every bucket in that one slot.
 */
export function bucketKeysShareASlot(keyPrefix: string): boolean {
  const tags = new Set(Object.values(permitKeys(keyPrefix, 'bucket')).map(hashTag));
  return tags.size === 1;
}
