import { AdminApiError } from '../../errors/admin-api-error.js';

/**
 * Thrown when building a `payment.paid` matcher from a coupon list in which two different coupons
 * have the same code once compared the way the server stores codes: a match could not tell them apart.
 */
export class DuplicateCouponCodeError extends AdminApiError {
  override name = 'DuplicateCouponCodeError';
  /** The ids of the two coupons that share a code. */
  readonly couponIds: readonly [string, string];

  constructor(couponIds: readonly [string, string]) {
    super(
      `Failed to createPaymentPaidMatcher: coupons ${couponIds[0]} and ${couponIds[1]} have the same code ` +
        `(after stripping whitespace). Pass each managed coupon once, with the code createCoupon returned.`,
      { operation: 'createPaymentPaidMatcher' },
    );
    this.couponIds = couponIds;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { couponIds: this.couponIds };
  }
}
