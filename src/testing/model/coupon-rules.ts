import type { CouponRecord, GrantRecord, StoredGrantStatus } from './records.js';

/** Grant statuses as the API reports them. */
export type ReportedGrantStatus = StoredGrantStatus | 'expired';

/** True once the coupon's `expiredAt` has passed. */
export function couponExpired(coupon: CouponRecord, now: number): boolean {
  return coupon.expiredAt !== null && now >= coupon.expiredAt;
}

/**
 * The status the API reports: a grant still held (`granted`) reads `expired` once its coupon has
 * expired; a deactivated coupon does not change it.
 */
export function reportedGrantStatus(grant: GrantRecord, coupon: CouponRecord, now: number): ReportedGrantStatus {
  if (grant.status === 'granted' && couponExpired(coupon, now)) return 'expired';
  return grant.status;
}

/** Why a coupon cannot be redeemed right now, or null when it can. */
export function couponUnusableReason(coupon: CouponRecord, now: number): string | null {
  if (coupon.deletedAt !== null) return 'the coupon was deleted';
  if (!coupon.active) return 'the coupon is deactivated';
  if (coupon.startedAt !== null && now < coupon.startedAt) return 'the coupon has not started yet';
  if (couponExpired(coupon, now)) return 'the coupon has expired';
  return null;
}
