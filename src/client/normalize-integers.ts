/**
 * The Int and BigInt fields the SDK's documents select. A server may serialise them as strings of
 * digits (the spec's sample shows `currentPeriodEnd` so); callers always get numbers. A test checks
 * this list against the schema and the fragments.
 */
export const INTEGER_FIELDS: ReadonlySet<string> = new Set([
  // Subscription
  'currentPeriodEnd', 'currentPeriodStart', 'endAt', 'nextChargeDate', 'startAt',
  // AdminConsultingService
  'publishedAt', 'meetingCount',
  // AdminConsultingMeeting
  'startedAt', 'endedAt', 'maxAttendeeCapacity', 'attendeeCount',
  // AdminCoupon
  'redemptionLimit', 'expiredAt', 'appliedCount',
  // AdminCouponGrant
  'grantedAt', 'redeemedAt', 'revokedAt',
  // shared
  'discardedAt', 'createdAt', 'updatedAt',
]);

const DIGITS = /^-?\d+$/;
/** The documents' selections are a few levels deep; deeper data (a hostile body) is left as it is. */
const MAX_DEPTH = 16;

/**
 * Returns `value` with every {@link INTEGER_FIELDS} entry that holds a string of digits turned
 * into a number, at any depth. Objects are copied only where something changed.
 */
export function normalizeIntegers<T>(value: T): T {
  return normalize(value) as T;
}

function normalize(value: unknown, depth = 0): unknown {
  if (depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const next = normalize(item, depth + 1);
      changed ||= next !== item;
      return next;
    });
    return changed ? items : value;
  }
  if (value === null || typeof value !== 'object') return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const next = INTEGER_FIELDS.has(key) && typeof item === 'string' && DIGITS.test(item) ? Number(item) : normalize(item, depth + 1);
    if (next !== item) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[key] = next;
    }
  }
  return copy ?? value;
}
