import { fail } from '../graphql/coded-error.js';
import type { ResolverContext } from '../graphql/resolver-context.js';
import { grantView } from '../graphql/views.js';
import type { GrantRecord, UserRecord } from '../model/records.js';
import type { SchoolModel } from '../model/school.js';

const given = (value: string | null | undefined): value is string => value !== null && value !== undefined;

/** The non-deleted member the grant goes to; ENROLLMENT-002 otherwise (no user is created). */
function grantee(school: SchoolModel, userId: string | null | undefined, email: string | null | undefined): UserRecord {
  const member = given(userId) ? school.member(userId) : school.memberByEmail(email ?? '');
  if (!member) fail('ENROLLMENT-002', 'member not found in this school', given(userId) ? { userId } : {});
  return member;
}

/**
 * `createCouponGrant`: idempotent per member and coupon (a grant that is not revoked is returned
 * with `created: false`); the coupon's own state is not checked; nothing is sent to the member.
 */
export function createCouponGrant(
  args: { couponId: string; userId?: string | null; email?: string | null },
  ctx: ResolverContext,
) {
  const { school, now, ids } = ctx;
  if (!given(args.userId) && !given(args.email)) fail('COUPON-005', 'one of userId or email is required');
  if (given(args.userId) && given(args.email)) fail('COUPON-006', 'send exactly one of userId or email, not both');
  const coupon = school.liveCoupon(args.couponId);
  if (!coupon) fail('COUPON-001', 'coupon not found', { couponId: args.couponId });
  if (!coupon.restricted) fail('COUPON-003', 'coupon is not restricted; only restricted coupons can be granted', { couponId: coupon.id });
  const member = grantee(school, args.userId, args.email);
  const existing = school.activeGrant(coupon.id, member.id);
  if (existing) return { grant: grantView(school, existing, now), created: false, errors: null };
  const grant: GrantRecord = {
    id: ids.uuid(),
    couponId: coupon.id,
    userId: member.id,
    status: 'granted',
    grantedByName: null,
    grantedAt: now,
    redeemedAt: null,
    revokedAt: null,
  };
  school.tables.grants.set(grant.id, grant);
  return { grant: grantView(school, grant, now), created: true, errors: null };
}

/** `revokeCouponGrant`: COUPON-004 for an unknown or already revoked grant; a redemption stays. */
export function revokeCouponGrant(args: { grantId: string }, ctx: ResolverContext) {
  const { school, now } = ctx;
  const grant = school.tables.grants.get(args.grantId);
  if (!grant || grant.status === 'revoked') {
    fail('COUPON-004', 'grant not found or already revoked', { grantId: args.grantId });
  }
  grant.status = 'revoked';
  grant.revokedAt = now;
  return { grant: grantView(school, grant, now), errors: null };
}
