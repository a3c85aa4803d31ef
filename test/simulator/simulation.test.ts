import { describe, expect, it } from 'vitest';
import { CheckoutRefusedError, createManualClock, createSimulator } from '../../src/testing/index.js';
import { postGraphQL } from './support/post-graphql.js';
import { NOW_MS } from './support/small-school.js';

function couponSchool() {
  const clock = createManualClock(NOW_MS);
  const sim = createSimulator({ clock });
  const school = sim.addSchool();
  const member = school.addMember({ name: 'Rita Member', email: 'rita@school.example' });
  const coupon = school.addCoupon({ code: 'VIP-2026', restricted: true, expiredAt: NOW_MS / 1000 + 3600 });
  return { sim, clock, school, member, coupon, key: school.addApiKey() };
}

const GRANT = 'mutation($c: String!, $u: String) { createCouponGrant(couponId: $c, userId: $u) { grant { id status } created } }';

describe('simulated checkout: what the API cannot do but the spec describes', () => {
  it('a member redeeming a grant: status redeemed and a payment.paid payload matching on coupon.code', async () => {
    const { sim, member, coupon, key } = couponSchool();
    const granted = await postGraphQL(sim, GRANT, { c: coupon.id, u: member.id }, key);
    const grantId = granted.json.data.createCouponGrant.grant.id as string;
    const webhook = sim.redeemGrant(grantId);
    expect(webhook.type).toBe('payment.paid');
    expect(webhook.data.coupon.code).toBe('VIP-2026');
    // coupon.id belongs to a discount code generated for the coupon, never the coupon itself.
    expect(webhook.data.coupon.id).not.toBe(coupon.id);
    expect(sim.school().tables.discountCodes.get(webhook.data.coupon.id)?.couponId).toBe(coupon.id);
    expect(webhook.data.user).toEqual({ id: member.id, email: 'rita@school.example', name: 'Rita Member' });
    expect(sim.webhooks()).toEqual([webhook]);
    const grant = sim.school().tables.grants.get(grantId);
    expect(grant?.status).toBe('redeemed');
    expect(sim.school().tables.coupons.get(coupon.id)?.appliedCount).toBe(1);
  });

  it('a grant is one single use, and a deactivated or expired coupon cannot be redeemed', async () => {
    const { sim, clock, school, member, coupon, key } = couponSchool();
    const grantId = (await postGraphQL(sim, GRANT, { c: coupon.id, u: member.id }, key)).json.data.createCouponGrant.grant.id as string;
    sim.redeemGrant(grantId);
    expect(() => sim.redeemGrant(grantId)).toThrow(CheckoutRefusedError);
    const other = school.addMember();
    const second = (await postGraphQL(sim, GRANT, { c: coupon.id, u: other.id }, key)).json.data.createCouponGrant.grant.id as string;
    sim.school().tables.coupons.get(coupon.id)!.active = false;
    expect(() => sim.redeemGrant(second)).toThrow(/deactivated/);
    sim.school().tables.coupons.get(coupon.id)!.active = true;
    clock.advance(3600 * 1000);
    expect(() => sim.redeemGrant(second)).toThrow(/expired/);
  });

  it('a coupon expiring (clock) reports its unredeemed grants as expired', async () => {
    const { sim, clock, member, coupon, key } = couponSchool();
    await postGraphQL(sim, GRANT, { c: coupon.id, u: member.id }, key);
    clock.advance(3600 * 1000);
    const again = await postGraphQL(sim, GRANT, { c: coupon.id, u: member.id }, key);
    expect(again.json.data.createCouponGrant).toMatchObject({ created: false, grant: { status: 'expired' } });
  });

  it('deleting a member account makes it "not found" (ENROLLMENT-002)', async () => {
    const { sim, member, coupon, key } = couponSchool();
    sim.deleteUser(member.id);
    const answer = await postGraphQL(sim, GRANT, { c: coupon.id, u: member.id }, key);
    expect(answer.json.errors[0].extensions.error.code).toBe('ENROLLMENT-002');
  });
});

describe('observability', () => {
  it('stats() shows a non-idempotent mutation executed exactly once, and the request log records it', async () => {
    const { sim, member, coupon, key } = couponSchool();
    await postGraphQL(sim, GRANT, { c: coupon.id, u: member.id }, key);
    expect(sim.stats().fields['createCouponGrant']).toEqual({ arrivals: 1, executions: 1, rateLimited: 0 });
    const [entry] = sim.requestLog();
    expect(entry).toMatchObject({ arrivedAt: NOW_MS, operationType: 'mutations', fields: ['createCouponGrant'], status: 200, apiKeyId: 'key_1' });
    sim.resetStats();
    expect(sim.stats().fields).toEqual({});
  });

  it('latency: a delay before arrival and one after handling (arrival time is taken after the first)', async () => {
    const order: string[] = [];
    const clock = createManualClock(NOW_MS);
    const sim = createSimulator({
      clock,
      latency: {
        beforeArrivalMs: () => {
          order.push('uplink');
          clock.advance(5_000);
          return 1;
        },
        afterHandlingMs: () => {
          order.push('downlink');
          return 1;
        },
      },
    });
    const key = sim.addSchool().addApiKey();
    await postGraphQL(sim, '{ __typename }', {}, key);
    expect(order).toEqual(['uplink', 'downlink']);
    expect(sim.requestLog()[0]?.arrivedAt).toBe(NOW_MS + 5_000);
  });
});
