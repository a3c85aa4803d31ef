import { InvalidResponseError } from '../../errors/invalid-response-error.js';
import { errorBase, type ErrorContext } from '../../response/error-context.js';
import { MAX_JSON_DEPTH } from '../../transport/json-depth.js';

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
/** Longest field path quoted in a message (keys come from the server). */
const MAX_PATH_LENGTH = 200;

/**
 * Returns `value` with every {@link INTEGER_FIELDS} entry that holds a string of digits turned into
 * a number, at any depth (objects are copied only where something changed), and refuses numbers
 * that would reach the caller wrong: an integer field that is not a safe integer (a 400-digit
 * timestamp, digits beyond 2^53) and any number JSON.parse overflowed to ±Infinity (`1e400`)
 * throw `InvalidResponseError` with problem `invalid_number`. For `request()` pass an empty set:
 * its data is left as sent except for that overflow check.
 */
export function normalizeIntegers<T>(value: T, context: ErrorContext, integerFields: ReadonlySet<string> = INTEGER_FIELDS): T {
  return normalize(value, 0, { context, integerFields, at: [] }) as T;
}

interface Walk {
  context: ErrorContext;
  integerFields: ReadonlySet<string>;
  /** The keys and indexes from the root to the value walked: its path is written only for an error. */
  at: Array<string | number>;
}

function normalize(value: unknown, depth: number, walk: Walk): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalidNumber(walk, 'overflows to Infinity');
    return value;
  }
  // The transport refuses bodies deeper than this, so the bound only guards the stack.
  if (value === null || typeof value !== 'object' || depth >= MAX_JSON_DEPTH) return value;
  const { at } = walk;
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      at.push(index);
      const next = normalize(item, depth + 1, walk);
      at.pop();
      if (next !== item) (items ??= [...value])[index] = next;
    }
    return items ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const item = object[key];
    at.push(key);
    const next = walk.integerFields.has(key) ? integer(item, depth, walk) : normalize(item, depth + 1, walk);
    at.pop();
    if (next !== item) {
      copy ??= { ...object };
      Object.defineProperty(copy, key, { value: next, enumerable: true, writable: true, configurable: true });
    }
  }
  return copy ?? value;
}

function integer(item: unknown, depth: number, walk: Walk): unknown {
  const number = typeof item === 'string' && DIGITS.test(item) ? Number(item) : item;
  if (typeof number !== 'number') return normalize(item, depth + 1, walk);
  if (!Number.isSafeInteger(number)) throw invalidNumber(walk, Number.isFinite(number) ? 'is not an integer JavaScript can hold exactly' : 'overflows to Infinity');
  return number;
}

/** `createCouponGrant.grant.grantedAt`, `results[2].errors`: the path of the value walked. */
function pathOf(at: ReadonlyArray<string | number>): string {
  let path = '';
  for (const step of at) path = typeof step === 'number' ? `${path}[${step}]` : path === '' ? step : `${path}.${step}`;
  return path;
}

function invalidNumber(walk: Walk, problem: string): InvalidResponseError {
  const { context } = walk;
  const path = pathOf(walk.at);
  const where = context.redactor.text(path.length > MAX_PATH_LENGTH ? `${path.slice(0, MAX_PATH_LENGTH)}...` : path);
  return new InvalidResponseError(
    `Failed to ${context.label}: the response's ${where} ${problem}. The operation ran; check its result before repeating it.`,
    { ...errorBase(context), status: context.response?.status ?? 200, problem: 'invalid_number', ran: 'yes' },
  );
}
