/**
 * Coupon grants one by one: granting is idempotent (`created: false` the second time), a revoked
 * grant no longer counts (granting again creates a new one), and only restricted coupons can be
 * granted (COUPON-003).
 *
 * Run: npx tsx examples/grants.ts   (the simulator; a real server with ADMIN_API_URL + ADMIN_API_KEY)
 */
import { hasCode } from '../src/index.js';
import { step } from './support/report.js';
import { connect } from './support/target.js';

const target = await connect();
const { admin, school } = target;
const email = school.memberEmails[2] as string;
try {
  const coupon = await admin.createCoupon({ name: 'Referral reward', couponType: 'percentage', amount: 30, restricted: true });

  const first = await step('Grant the coupon to a member', async () => {
    const result = await admin.grantCoupon(coupon.id, { email });
    return { value: result, line: `created=${result.created}, status ${result.grant.status}` };
  });

  await step('Grant it again: the existing grant comes back', async () => {
    const again = await admin.grantCoupon(coupon.id, { email });
    return { value: again, line: `created=${again.created}, same grant: ${again.grant.id === first.grant.id}` };
  });

  await step('Revoke it, then grant again: a new grant', async () => {
    const revoked = await admin.revokeCouponGrant(first.grant.id);
    const renewed = await admin.grantCoupon(coupon.id, { email });
    return { value: renewed, line: `revoked ${revoked.status}; new grant created=${renewed.created}` };
  });

  await step('A normal (public) coupon cannot be granted', async () => {
    const open = await admin.createCoupon({ name: 'Open house', couponType: 'percentage', amount: 5 });
    const error = await admin.grantCoupon(open.id, { email }).catch((caught: unknown) => caught);
    return { value: error, line: hasCode(error, 'COUPON-003') ? 'COUPON-003: only restricted coupons can be granted' : String(error) };
  });
} finally {
  await target.close();
}
