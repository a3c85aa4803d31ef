/** How two coupon codes are compared. */
export interface CouponCodeComparison {
  /**
   * Compare codes ignoring letter case. Off by default: the spec documents only whitespace stripping
   * as the server's normalisation, and the webhook's `coupon.code` is the stored code of a server
   * record (not what the buyer typed), so the exact stored spelling is what identifies a coupon;
   * folding case could attribute another coupon whose code differs only by case. Turn it on only if
   * your school is known to treat codes case-insensitively.
   * @default false
   */
  caseInsensitive?: boolean | undefined;
}

/**
 * A coupon code the way the server stores it: all whitespace stripped (`' SPRING 26 '` ->
 * `'SPRING26'`), and lower-cased too when `caseInsensitive` is on.
 *
 * @example
 * ```ts
 * couponCodeKey(' vip 2026\n'); // 'vip2026'
 * ```
 */
export function couponCodeKey(code: string, comparison: CouponCodeComparison = {}): string {
  const stored = code.replace(/\s+/gu, '');
  return comparison.caseInsensitive === true ? stored.toLowerCase() : stored;
}
