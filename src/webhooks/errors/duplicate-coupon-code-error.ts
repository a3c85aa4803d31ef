import { AdminApiError } from '../../errors/admin-api-error.js';

/**
 * Thrown when building a `payment.paid` matcher from a coupon list in which two different coupons
 * have the same code once compared as the matcher compares them (whitespace stripped, letter case
 * folded unless `caseInsensitive: false`): a match could not tell them apart.
 */
export class DuplicateCouponCodeError extends AdminApiError {
  override name = 'DuplicateCouponCodeError';
  /** The ids of the two coupons that share a code. */
  readonly couponIds: readonly [string, string];

  /** @param caseFolded - whether the codes were compared with letter case folded (the default). */
  constructor(couponIds: readonly [string, string], caseFolded = true) {
    super(
      `Failed to createPaymentPaidMatcher: coupons ${couponIds[0]} and ${couponIds[1]} have the same code ` +
        (caseFolded
          ? '(after stripping whitespace and folding case). Pass each managed coupon once, with the code createCoupon returned; if your school holds codes that differ by case alone, pass caseInsensitive: false.'
          : '(after stripping whitespace). Pass each managed coupon once, with the code createCoupon returned.'),
      { operation: 'createPaymentPaidMatcher' },
    );
    this.couponIds = couponIds;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { couponIds: this.couponIds };
  }
}
