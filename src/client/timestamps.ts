import type { Timestamp } from './types.js';

/** A {@link Timestamp} as the API wants it: whole Unix seconds. */
export function toUnixSeconds(value: Timestamp): number {
  return value instanceof Date ? Math.floor(value.getTime() / 1000) : value;
}

/**
 * Copies `input` with the named fields converted from `Date` to Unix seconds; `null` and absent
 * fields are kept as they are (null has a meaning in update inputs).
 */
export function withUnixSeconds<T extends object>(input: T, fields: readonly string[]): T {
  let copy: Record<string, unknown> | undefined;
  for (const field of fields) {
    const value = (input as Record<string, unknown>)[field];
    if (value instanceof Date) {
      copy ??= { ...(input as Record<string, unknown>) };
      copy[field] = toUnixSeconds(value);
    }
  }
  return (copy ?? input) as T;
}
