/** How two coupon codes are compared. */
export interface CouponCodeComparison {
  /**
   * Compare codes ignoring letter case, as the simulator does (`5hrs2t` matches `5HRS2T`). The spec
   * documents only whitespace stripping as the server's normalisation and says nothing of case;
   * the simulator's documented choice is the one a shop's checkout makes: a code is unique among
   * the school's live codes whatever its case, and a buyer may type it in any case. Under that
   * rule two live codes cannot differ by case alone, so folding case cannot confuse two coupons,
   * while keeping it would lose every order whose payload carries the code in another case than
   * the one you stored (the spec's "the code the order used" may be what the buyer typed). Turn it
   * off only if your school is known to hold codes that differ by case alone.
   * @default true
   */
  caseInsensitive?: boolean | undefined;
}

/**
 * The key two coupon codes are compared by: all whitespace stripped, as the server stores a code
 * (`' SPRING 26 '` -> `'SPRING26'`), and lower-cased unless `caseInsensitive` is `false`.
 *
 * @example
 * ```ts
 * couponCodeKey(' VIP 2026\n'); // 'vip2026'
 * couponCodeKey(' VIP 2026\n', { caseInsensitive: false }); // 'VIP2026'
 * ```
 */
export function couponCodeKey(code: string, comparison: CouponCodeComparison = {}): string {
  const stored = code.replace(/\s+/gu, '');
  return comparison.caseInsensitive === false ? stored : stored.toLowerCase();
}
