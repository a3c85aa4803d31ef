import type { Timestamp } from './types.js';

/** A {@link Timestamp} as the API wants it: whole Unix seconds. */
export function toUnixSeconds(value: Timestamp): number {
  return value instanceof Date ? Math.floor(value.getTime() / 1000) : value;
}
