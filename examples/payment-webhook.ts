/**
 * Learn that a member used a coupon grant: match `payment.paid` webhooks on `coupon.code` (the
 * payload's `coupon.id` is the discount code's id, not the coupon's). On the simulator a checkout
 * is simulated; against a real server a sample payload of the documented shape is matched.
 *
 * Run: npx tsx examples/payment-webhook.ts   (the simulator; a real server with ADMIN_API_URL + ADMIN_API_KEY)
 */
import { createPaymentPaidMatcher } from '../src/webhooks/index.js';
import { step } from './support/report.js';
import { connect } from './support/target.js';

const target = await connect();
const { admin, school } = target;
try {
  const coupon = await step('Create a restricted coupon and grant it to a member', async () => {
    const created = await admin.createCoupon({ name: 'Webinar thank-you', couponType: 'fixed_amount', amount: 10, restricted: true });
    const { grant } = await admin.grantCoupon(created.id, { email: school.memberEmails[0] as string });
    return { value: { id: created.id, code: created.code ?? '', grantId: grant.id }, line: `code ${created.code}, grant ${grant.status}` };
  });

  const payload = await step('The member pays with it: a payment.paid webhook arrives', async () => {
    const webhook =
      target.simulator?.redeemGrant(coupon.grantId) ??
      // A real server sends this to your endpoint; the shape below is the documented part of it.
      { type: 'payment.paid', data: { coupon: { id: 'discount-code-id', code: coupon.code }, user: { id: 'member-id', email: school.memberEmails[0] } } };
    return { value: JSON.stringify(webhook), line: `coupon.code ${coupon.code} in the payload` };
  });

  await step('Match it against the coupons you manage', async () => {
    const match = createPaymentPaidMatcher([coupon]);
    const result = match(JSON.parse(payload));
    const line = result?.kind === 'matched' ? `matched coupon ${result.coupon.id.slice(0, 8)}... used by ${result.member.email}` : `not matched: ${JSON.stringify(result)}`;
    return { value: result, line };
  });
} finally {
  await target.close();
}
