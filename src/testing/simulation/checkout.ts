import { couponUnusableReason } from '../model/coupon-rules.js';
import type { IdGenerator } from '../model/id-generator.js';
import type { CouponRecord, GrantRecord, PaymentPaidWebhook, UserRecord } from '../model/records.js';
import type { SchoolModel } from '../model/school.js';

/** A checkout the simulated shop refused (the admin API cannot redeem; this stands in for a member). */
export class CheckoutRefusedError extends Error {
  /** Always `'CheckoutRefusedError'`. */
  override name = 'CheckoutRefusedError';
}

/** A signed-in member paying with a coupon code. */
export interface CheckoutRequest {
  /** The member (signed in). */
  userId: string;
  /** The code typed at checkout (case-insensitive). */
  couponCode: string;
}

function refuse(reason: string): never {
  throw new CheckoutRefusedError(`Failed to check out: ${reason}.`);
}

function redeemableGrant(school: SchoolModel, coupon: CouponRecord, member: UserRecord): GrantRecord {
  const grant = [...school.tables.grants.values()].find(
    (candidate) => candidate.couponId === coupon.id && candidate.userId === member.id && candidate.status === 'granted',
  );
  if (!grant) refuse('the member holds no unused grant of this restricted coupon');
  return grant;
}

function checkUnrestrictedLimits(school: SchoolModel, coupon: CouponRecord, member: UserRecord): void {
  if (coupon.redemptionLimit !== null && coupon.appliedCount >= coupon.redemptionLimit) refuse('the redemption limit is reached');
  const usedBefore = school.tables.redemptions.some((use) => use.couponId === coupon.id && use.userId === member.id);
  if (coupon.oncePerUser && usedBefore) refuse('the coupon can be used once per member');
}

/**
 * Simulates a member paying with a coupon at checkout. A restricted coupon needs an unused grant
 * (which becomes `redeemed`; each grant is one use and `redemptionLimit` is not enforced); an
 * unrestricted one obeys `redemptionLimit` and `oncePerUser`. The order carries a discount code
 * generated for the coupon, and the returned `payment.paid` payload names that discount code's
 * id (never the coupon's) with the coupon's `code`.
 */
export function checkout(school: SchoolModel, ids: IdGenerator, now: number, request: CheckoutRequest): PaymentPaidWebhook {
  const member = school.member(request.userId);
  if (!member) refuse('the member is not a signed-in member of this school');
  const coupon = school.couponByCode(request.couponCode);
  if (!coupon) refuse('no coupon has this code');
  const unusable = couponUnusableReason(coupon, now);
  if (unusable) refuse(unusable);
  let grantId: string | null = null;
  if (coupon.restricted) {
    const grant = redeemableGrant(school, coupon, member);
    grant.status = 'redeemed';
    grant.redeemedAt = now;
    grantId = grant.id;
  } else {
    checkUnrestrictedLimits(school, coupon, member);
  }
  coupon.appliedCount += 1;
  const discountCode = { id: ids.uuid(), code: coupon.code, couponId: coupon.id, deletedAt: null, createdAt: now };
  school.tables.discountCodes.set(discountCode.id, discountCode);
  school.tables.redemptions.push({ id: ids.uuid(), couponId: coupon.id, userId: member.id, discountCodeId: discountCode.id, grantId, at: now });
  const webhook: PaymentPaidWebhook = {
    id: ids.sequential('evt'),
    type: 'payment.paid',
    createdAt: now,
    data: {
      payment: { id: ids.sequential('pay'), currency: school.tables.profile.currency },
      coupon: { id: discountCode.id, code: coupon.code },
      user: { id: member.id, email: member.email, name: member.name },
    },
  };
  school.tables.webhooks.push(webhook);
  return webhook;
}
