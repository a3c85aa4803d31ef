/**
 * Coupons: create a public and a restricted one, update (partial: omitted fields keep their
 * values), and see an input the server would refuse being refused locally, before sending.
 *
 * Run: npx tsx examples/coupons.ts   (the simulator; a real server with ADMIN_API_URL + ADMIN_API_KEY)
 */
import { AdminApiError } from '../src/index.js';
import { step } from './support/report.js';
import { connect } from './support/target.js';

const target = await connect();
const { admin } = target;
try {
  const spring = await step('Create a public percentage coupon with an expiry', async () => {
    const created = await admin.createCoupon({ name: 'Spring sale', couponType: 'percentage', amount: 15, expiredAt: new Date(Date.now() + 30 * 86_400_000) });
    return { value: created, line: `code ${created.code} (generated), expires ${new Date((created.expiredAt ?? 0) * 1000).toISOString().slice(0, 10)}` };
  });

  await step('Create a restricted (grant-only) coupon', async () => {
    const created = await admin.createCoupon({ name: 'VIP', couponType: 'fixed_amount', amount: 20, restricted: true, oncePerUser: true });
    return { value: created, line: `restricted=${created.restricted}, once per user=${created.oncePerUser}` };
  });

  await step('Deactivate the public one (other fields unchanged)', async () => {
    const updated = await admin.updateCoupon(spring.id, { active: false });
    return { value: updated, line: `active=${updated.active}, amount still ${updated.amount}` };
  });

  await step('A percentage over 100 is refused before anything is sent', async () => {
    const error = await admin.createCoupon({ name: 'Too generous', couponType: 'percentage', amount: 120 }).catch((caught: unknown) => caught);
    return { value: error, line: error instanceof AdminApiError ? `${error.name}: ${error.message}` : String(error) };
  });
} finally {
  await target.close();
}
