/** Reads one part of a webhook payload; returns `undefined` (or `null`) when the part is absent. */
export type PayloadAccessor = (payload: unknown) => unknown;

/** True for a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects a `payment.paid` field may sit in: the payload, its `data`, and `data.object`. */
function containers(payload: unknown): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  if (!isRecord(payload)) return found;
  found.push(payload);
  const data = payload['data'];
  if (isRecord(data)) {
    found.push(data);
    if (isRecord(data['object'])) found.push(data['object']);
  }
  return found;
}

/**
 * An accessor that takes the first non-null `key` at the top level, under `data`, or under
 * `data.object` (the spec does not show the full payload, so the common envelopes are all tried).
 */
export function fieldInEnvelopes(key: string): PayloadAccessor {
  return (payload) => containers(payload).map((container) => container[key]).find((value) => value !== undefined && value !== null);
}

/** Reads a string property, or a number turned into text (ids are sometimes numeric); else `null`. */
export function textField(record: unknown, key: string): string | null {
  if (!isRecord(record)) return null;
  const value = record[key];
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}
