import { couponCodeKey, type CouponCodeComparison } from '../coupon-code.js';
import { DuplicateCouponCodeError } from '../errors/duplicate-coupon-code-error.js';
import { fieldInEnvelopes, isRecord, textField, type PayloadAccessor } from './payload-fields.js';

/** A restricted coupon the integrator manages: its id and code as `createCoupon` returned them. */
export interface ManagedCoupon {
  /** The coupon's id (`Coupon.id`); never compared with the webhook's `coupon.id`, which is another object's. */
  id: string;
  /** The coupon's code (`Coupon.code`): what the matcher compares. */
  code: string;
}

/** The member who paid, as the webhook's `user` identifies them (each part `null` when absent). */
export interface PaymentMember {
  /** The webhook's `user.id`. */
  userId: string | null;
  /** The webhook's `user.email`. */
  email: string | null;
  /** The webhook's `user.name`. */
  name: string | null;
}

/** A `payment.paid` order that used one of the managed coupons. */
export interface PaymentPaidMatched<C extends ManagedCoupon = ManagedCoupon> {
  /** Discriminant: a managed coupon was used. */
  kind: 'matched';
  /** The managed coupon whose code the order used (the object you passed in). */
  coupon: C;
  /** The code as the webhook carried it. */
  code: string;
  /** Who paid. */
  member: PaymentMember;
}

/** Why a payload could not be read. */
export type PaymentPaidUnrecognisedReason =
  /** A string payload that is not JSON. */
  | 'not_json'
  /**
   * Neither `coupon` nor `user` where the matcher looks (the top level, `data`, `data.object`, or
   * your accessors): a shape it does not know, not an order without a coupon. Every `payment.paid`
   * names its `user`, so an order paid without a coupon still reads as `null`. Pass `accessors`
   * for your payload's shape (docs/webhooks.md).
   */
  | 'unknown_shape'
  /** Not a JSON object (with the default accessors). */
  | 'not_an_object'
  /** `coupon` is present but neither an object with a string `code` nor a list of such objects. */
  | 'coupon_malformed'
  /** A managed code was used, but `user` carries neither an id nor an email. */
  | 'member_missing'
  /** An accessor (yours or a getter on the payload) threw. */
  | 'read_failed';

/** A payload the matcher could not read; `coupon` is set when a managed code was found anyway. */
export interface PaymentPaidUnrecognised<C extends ManagedCoupon = ManagedCoupon> {
  /** Discriminant: the payload could not be read. */
  kind: 'unrecognised';
  /** What could not be read. */
  reason: PaymentPaidUnrecognisedReason;
  /** The managed coupon whose code was found, when one was. */
  coupon?: C;
}

/**
 * What a match returns: `matched`; `null` when the payload was read (its `user` or `coupon` found)
 * and the order used none of the managed coupons (or no coupon at all); or `unrecognised` when the
 * payload could not be read, so a shape the matcher does not know never passes for "no coupon".
 */
export type PaymentPaidResult<C extends ManagedCoupon = ManagedCoupon> = PaymentPaidMatched<C> | PaymentPaidUnrecognised<C> | null;

/** Options of {@link createPaymentPaidMatcher}. */
export interface PaymentPaidMatcherOptions extends CouponCodeComparison {
  /**
   * Escape hatch for payload shapes the defaults do not cover (the spec does not show the full
   * `payment.paid` payload). Each accessor receives the parsed payload and returns the `coupon`
   * object (or a list of them) or the `user` object.
   * @default `coupon` and `user` at the top level, under `data`, or under `data.object`
   */
  accessors?: {
    /** Returns the order's `coupon` object, or a list of them. */
    coupon?: PayloadAccessor | undefined;
    /** Returns the order's `user` object. */
    user?: PayloadAccessor | undefined;
  } | undefined;
}

/** Matches one `payment.paid` payload; never throws. */
export type PaymentPaidMatcher<C extends ManagedCoupon = ManagedCoupon> = (payload: unknown) => PaymentPaidResult<C>;

/** The code entries a `coupon` value holds, or `undefined` when it is malformed. */
function codesOf(coupon: unknown): string[] | undefined {
  const entries = Array.isArray(coupon) ? coupon : [coupon];
  const codes = entries.map((entry) => (isRecord(entry) && typeof entry['code'] === 'string' ? entry['code'] : null));
  const valid = codes.filter((code): code is string => code !== null);
  return valid.length === 0 ? undefined : valid;
}

function memberOf(user: unknown): PaymentMember | undefined {
  const member = { userId: textField(user, 'id'), email: textField(user, 'email'), name: textField(user, 'name') };
  return member.userId === null && member.email === null ? undefined : member;
}

/**
 * Builds a matcher that tells, for a `payment.paid` webhook payload, which of your restricted coupons
 * the order used and by which member. It matches on `coupon.code`, never `coupon.id` (that id belongs
 * to the coupon's discount code, not to the coupon `createCoupon` returned), and looks at every entry
 * when `coupon` is a list (an order may carry an extra discount code generated for the coupon).
 * Codes are compared with whitespace stripped (as the server stores them) and, by default, letter
 * case folded, as the simulator's checkout does (see `caseInsensitive`).
 *
 * The matcher never throws on a payload: it returns a `matched` result, `null` when the payload was
 * read and the order used none of the managed coupons (or no coupon), or an `unrecognised` result
 * with a stable `reason`: `unknown_shape` when neither `coupon` nor `user` was found, so a payload
 * of another shape never reads as "no coupon used". docs/webhooks.md lists the fields read.
 *
 * @throws {DuplicateCouponCodeError} (when building) if two coupons share a code.
 * @example
 * ```ts
 * const match = createPaymentPaidMatcher(managedCoupons);
 * const result = match(JSON.parse(rawBody));
 * if (result?.kind === 'matched') markRedeemed(result.coupon.id, result.member.userId);
 * ```
 */
export function createPaymentPaidMatcher<C extends ManagedCoupon>(
  coupons: readonly C[],
  options: PaymentPaidMatcherOptions = {},
): PaymentPaidMatcher<C> {
  const byCode = new Map<string, C>();
  for (const coupon of coupons) {
    const key = couponCodeKey(coupon.code, options);
    const other = byCode.get(key);
    if (other !== undefined && other.id !== coupon.id) throw new DuplicateCouponCodeError([other.id, coupon.id], options.caseInsensitive !== false);
    byCode.set(key, coupon);
  }
  const readCoupon = options.accessors?.coupon ?? fieldInEnvelopes('coupon');
  const readUser = options.accessors?.user ?? fieldInEnvelopes('user');
  const usesDefaults = options.accessors?.coupon === undefined || options.accessors.user === undefined;

  const matchParsed = (payload: unknown): PaymentPaidResult<C> => {
    if (usesDefaults && !isRecord(payload)) return { kind: 'unrecognised', reason: 'not_an_object' };
    const coupon = readCoupon(payload);
    if (coupon === undefined || coupon === null) {
      // Every payment.paid names its user: without one either, the payload is not one the matcher reads.
      const user = readUser(payload);
      return user === undefined || user === null ? { kind: 'unrecognised', reason: 'unknown_shape' } : null;
    }
    const codes = codesOf(coupon);
    if (codes === undefined) return { kind: 'unrecognised', reason: 'coupon_malformed' };
    const used = codes
      .map((code) => ({ code, managed: byCode.get(couponCodeKey(code, options)) }))
      .find((candidate) => candidate.managed !== undefined);
    if (used?.managed === undefined) return null;
    const member = memberOf(readUser(payload));
    if (member === undefined) return { kind: 'unrecognised', reason: 'member_missing', coupon: used.managed };
    return { kind: 'matched', coupon: used.managed, code: used.code, member };
  };

  return (payload) => {
    let parsed: unknown = payload;
    if (typeof payload === 'string') {
      try {
        parsed = JSON.parse(payload);
      } catch {
        return { kind: 'unrecognised', reason: 'not_json' };
      }
    }
    try {
      return matchParsed(parsed);
    } catch {
      return { kind: 'unrecognised', reason: 'read_failed' };
    }
  };
}

/**
 * One-off form of {@link createPaymentPaidMatcher}: matches a single payload against the managed
 * coupons. Build the matcher once instead when handling many webhooks.
 *
 * @throws {DuplicateCouponCodeError} if two coupons share a code (a problem of the list, not of the payload).
 */
export function matchPaymentPaid<C extends ManagedCoupon>(
  payload: unknown,
  coupons: readonly C[],
  options: PaymentPaidMatcherOptions = {},
): PaymentPaidResult<C> {
  return createPaymentPaidMatcher(coupons, options)(payload);
}
