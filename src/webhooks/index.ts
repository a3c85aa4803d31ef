/**
 * Webhook helpers: which managed restricted coupon a `payment.paid` order used, and by whom.
 *
 * @module school-admin-sdk/webhooks
 */
export { createPaymentPaidMatcher, matchPaymentPaid } from './payment-paid/payment-paid-matcher.js';
export type {
  ManagedCoupon,
  PaymentMember,
  PaymentPaidMatched,
  PaymentPaidMatcher,
  PaymentPaidMatcherOptions,
  PaymentPaidResult,
  PaymentPaidUnrecognised,
  PaymentPaidUnrecognisedReason,
} from './payment-paid/payment-paid-matcher.js';
export type { PayloadAccessor } from './payment-paid/payload-fields.js';
export { couponCodeKey } from './coupon-code.js';
export type { CouponCodeComparison } from './coupon-code.js';
export { DuplicateCouponCodeError } from './errors/duplicate-coupon-code-error.js';
