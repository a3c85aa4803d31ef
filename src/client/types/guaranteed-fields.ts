import { InvalidResponseError } from '../../errors/invalid-response-error.js';
import { errorBase, type ErrorContext } from '../../response/error-context.js';
import type {
  AdminUser,
  AttendeeRate,
  AttendeeRating,
  ConsultingMeeting,
  ConsultingService,
  Coupon,
  CouponGrant,
  CouponWithGrants,
  DiscardedConsultingService,
  MembershipPlan,
  RevokedCouponGrant,
  Subscription,
  SubscriptionOwner,
} from './result-types.js';
import type { BulkResult, BulkRow, EnrollResult, GrantResult, RescheduleResult, RowError } from './types.js';

/*
 * The table of fields a successful answer guarantees, per result type, and the one check that
 * enforces it where payloads are unwrapped (operations.ts wraps every row's `unwrap` with it). The
 * result types declare these fields non-null; `shapeOf` refuses to compile unless a shape lists
 * exactly the non-null fields of its type, so the types and this table cannot drift apart.
 */

/** The keys of `T` whose values can be neither null nor undefined. */
export type GuaranteedKeys<T> = { [K in keyof T]-?: null extends T[K] ? never : undefined extends T[K] ? never : K }[keyof T] & keyof T & string;

type ElementOf<T> = T extends readonly (infer E)[] ? E : T;

/** The keys of `T` holding an object or a list of objects (their contents have guarantees of their own). */
type ObjectKeys<T> = { [K in keyof T]-?: ElementOf<NonNullable<T[K]>> extends object ? K : never }[keyof T] & keyof T;

/** What a successful result of type `T` guarantees. */
export interface ResultShape<T> {
  /** How messages name the result, e.g. `'ConsultingMeeting'`. */
  readonly name: string;
  /** The fields that are never null or missing. */
  readonly required: readonly GuaranteedKeys<T>[];
  /** The shape of every object-valued field (for a list: of each entry), checked when the field is set. */
  readonly nested: { readonly [K in ObjectKeys<T>]: ResultShape<ElementOf<NonNullable<T[K]>>> };
}

/** `T` as a server may send it: any field, at any depth, possibly null. */
export type Unchecked<T> = T extends readonly (infer E)[] ? Unchecked<E>[] : T extends object ? { [K in keyof T]: Unchecked<T[K]> | null } : T;

/**
 * Declares the shape of `T`. The `required` list must name every non-null field of `T`: a missing
 * one leaves the call one argument short (its expected type names the missing fields).
 */
export function shapeOf<T>(name: string) {
  return <const K extends readonly GuaranteedKeys<T>[]>(
    required: K,
    nested: ResultShape<T>['nested'],
    ...complete: [Exclude<GuaranteedKeys<T>, K[number]>] extends [never] ? [] : [missing: Exclude<GuaranteedKeys<T>, K[number]>]
  ): ResultShape<T> => {
    void complete;
    return Object.freeze({ name, required, nested });
  };
}

const MEMBERSHIP_PLAN = shapeOf<MembershipPlan>('MembershipPlan')(['id'], {});
const SUBSCRIPTION_OWNER = shapeOf<SubscriptionOwner>('SubscriptionOwner')(['id'], {});
const ADMIN_USER = shapeOf<AdminUser>('AdminUser')(['id'], {});

const SERVICE_FIELDS = ['id', 'name', 'slug', 'published', 'courseId', 'effectiveTimezone'] as const;
const MEETING = shapeOf<ConsultingMeeting>('ConsultingMeeting')(['id', 'title', 'state', 'startedAt', 'endedAt', 'serviceId', 'hostUserId'], {});
const COUPON_GRANT = shapeOf<CouponGrant>('CouponGrant')(['id', 'status', 'grantedAt'], {});
const COUPON_FIELDS = ['id', 'name', 'code', 'couponType', 'amount', 'active', 'restricted', 'oncePerUser'] as const;
const ATTENDEE_RATE = shapeOf<AttendeeRate>('AttendeeRate')(['score'], {});
const ROW_ERROR = shapeOf<RowError>('RowError')(['message', 'validOptionsTruncated'], {});
const BULK_ROW = shapeOf<BulkRow>('BulkRow')(['errors'], { meeting: MEETING, errors: ROW_ERROR });

/** The guaranteed fields of every result a typed method resolves to. */
export const GUARANTEED_FIELDS = {
  Subscription: shapeOf<Subscription>('Subscription')(['id', 'currentPeriodEnd', 'isCanceling', 'isCancellable', 'planId', 'state', 'plan', 'user'], {
    plan: MEMBERSHIP_PLAN,
    user: SUBSCRIPTION_OWNER,
  }),
  ConsultingService: shapeOf<ConsultingService>('ConsultingService')(SERVICE_FIELDS, {}),
  DiscardedConsultingService: shapeOf<DiscardedConsultingService>('DiscardedConsultingService')([...SERVICE_FIELDS, 'discardedAt'], {}),
  ConsultingMeeting: MEETING,
  BulkResult: shapeOf<BulkResult>('BulkResult')(['allSucceeded', 'errors', 'results'], { results: BULK_ROW }),
  EnrollResult: shapeOf<EnrollResult>('EnrollResult')(['meeting', 'user'], { meeting: MEETING, user: ADMIN_USER }),
  RescheduleResult: shapeOf<RescheduleResult>('RescheduleResult')(['fromMeeting', 'toMeeting'], { fromMeeting: MEETING, toMeeting: MEETING }),
  AttendeeRating: shapeOf<AttendeeRating>('AttendeeRating')(['userId'], { rate: ATTENDEE_RATE }),
  Coupon: shapeOf<Coupon>('Coupon')(COUPON_FIELDS, {}),
  CouponWithGrants: shapeOf<CouponWithGrants>('CouponWithGrants')(COUPON_FIELDS, { grants: COUPON_GRANT }),
  GrantResult: shapeOf<GrantResult>('GrantResult')(['grant', 'created'], { grant: COUPON_GRANT }),
  RevokedCouponGrant: shapeOf<RevokedCouponGrant>('RevokedCouponGrant')(['id', 'status', 'grantedAt', 'revokedAt'], {}),
} as const;

/**
 * Returns `value` as the result type once every guaranteed field is set, at any depth; throws
 * `InvalidResponseError` (problem `'missing_guaranteed_field'`) naming the first field that is
 * null or missing. A successful payload that breaks a guarantee is a server fault the caller must
 * hear about, not a null to stumble on later.
 */
export function requireGuaranteed<T>(value: Unchecked<T>, shape: ResultShape<T>, context: ErrorContext): T {
  const missing = findMissing(value, shape as ResultShape<unknown>, shape.name);
  if (missing !== undefined) throw missingGuaranteedField(context, missing);
  return value as T;
}

function findMissing(value: unknown, shape: ResultShape<unknown>, path: string): string | undefined {
  if (value === null || value === undefined) return path;
  const fields = value as Record<string, unknown>;
  for (const key of shape.required) {
    if (fields[key] === null || fields[key] === undefined) return `${path}.${key}`;
  }
  for (const [key, inner] of Object.entries(shape.nested as Record<string, ResultShape<unknown>>)) {
    const child = fields[key];
    if (child === null || child === undefined) continue;
    const missing = Array.isArray(child)
      ? child.map((item, index) => findMissing(item, inner, `${path}.${key}[${index}]`)).find((found) => found !== undefined)
      : findMissing(child, inner, `${path}.${key}`);
    if (missing !== undefined) return missing;
  }
  return undefined;
}

function missingGuaranteedField(context: ErrorContext, path: string): InvalidResponseError {
  return new InvalidResponseError(
    `Failed to ${context.label}: the server reported success without ${path}, which a successful answer always carries. ` +
      'The change was probably applied; check its state before repeating the call.',
    { ...errorBase(context), status: context.response?.status ?? 200, problem: 'missing_guaranteed_field', ran: 'yes' },
  );
}
