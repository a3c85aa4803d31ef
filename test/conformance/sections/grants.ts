import { describe, expect, it } from 'vitest';
import { CreateCouponGrantDocument } from '../../../src/generated/graphql.js';
import { DAY, NOW } from '../support/fixture.js';
import type { ConformanceTarget } from '../support/targets.js';
import { serverCode, useWorld, type World } from '../support/world.js';

function restricted(w: World, overrides: Parameters<World['s']['school']['addCoupon']>[0] = {}) {
  return w.s.school.addCoupon({ code: 'VIP', restricted: true, ...overrides });
}

/** createCouponGrant, revokeCouponGrant and the coupon grant state table. */
export function grantsSection(target: ConformanceTarget): void {
  describe('createCouponGrant and the coupon grant states', () => {
    const world = useWorld(target);

    it('(none) -> granted with created: true; grantedByName null when granted with an API key', async () => {
      const w = world();
      const { grant, created } = await w.client.grantCoupon(restricted(w).id, { userId: w.s.alice.id });
      expect(created).toBe(true);
      expect(grant).toMatchObject({ status: 'granted', userName: 'Alice', userEmail: 'alice@school.example', grantedByName: null, grantedAt: NOW, redeemedAt: null, revokedAt: null });
    });

    it('granted -> unchanged on a repeat for the same member and coupon, returned with created: false', async () => {
      const w = world();
      const coupon = restricted(w);
      const first = await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id });
      const second = await w.client.grantCoupon(coupon.id, { email: 'ALICE@school.example' });
      expect(second).toEqual({ grant: first.grant, created: false });
      expect(w.sim.school().tables.grants.size).toBe(1);
    });

    it('granted -> redeemed when the member redeems it at checkout (signed in, coupon usable)', async () => {
      const w = world();
      const coupon = restricted(w);
      const { grant } = await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id });
      w.clock.advance(60_000);
      w.sim.redeemGrant(grant.id);
      const { grants } = await w.client.updateCoupon(coupon.id, {}, { includeGrants: true });
      expect(grants?.find((candidate) => candidate.id === grant.id)).toMatchObject({ status: 'redeemed', redeemedAt: NOW + 60 });
    });

    it('redeemed -> unchanged on a repeat grant: the existing grant comes back with created: false, reported redeemed', async () => {
      const w = world();
      const coupon = restricted(w);
      const { grant } = await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id });
      w.sim.redeemGrant(grant.id);
      expect(await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id })).toMatchObject({ created: false, grant: { id: grant.id, status: 'redeemed' } });
    });

    it('granted -> expired (reported) when the coupon expires unredeemed; granting an expired coupon succeeds and reports expired', async () => {
      const w = world();
      const coupon = restricted(w, { expiredAt: NOW + DAY });
      const { grant } = await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id });
      w.clock.advance(DAY * 1000);
      expect(await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id })).toMatchObject({ created: false, grant: { id: grant.id, status: 'expired' } });
      expect(await w.client.grantCoupon(coupon.id, { userId: w.s.bob.id })).toMatchObject({ created: true, grant: { status: 'expired' } });
      expect(() => w.sim.redeemGrant(grant.id)).toThrow(/expired/);
    });

    it('a grant on a deactivated coupon reports granted but cannot be redeemed while it stays deactivated', async () => {
      const w = world();
      const coupon = restricted(w, { active: false });
      const { grant, created } = await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id });
      expect([grant.status, created]).toEqual(['granted', true]);
      expect(() => w.sim.redeemGrant(grant.id)).toThrow(/deactivated/);
      await w.client.updateCoupon(coupon.id, { active: true });
      expect(w.sim.redeemGrant(grant.id).data.coupon.code).toBe('VIP');
    });

    it('revoked -> a new grant is created (created: true), redeemable once more even if the revoked one was redeemed', async () => {
      const w = world();
      const coupon = restricted(w);
      const first = await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id });
      w.sim.redeemGrant(first.grant.id);
      await w.client.revokeCouponGrant(first.grant.id);
      const second = await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id });
      expect(second.created).toBe(true);
      expect(second.grant.id).not.toBe(first.grant.id);
      expect(w.sim.redeemGrant(second.grant.id).data.user.id).toBe(w.s.alice.id);
    });

    it('only existing non-deleted members can be granted; no user is created: ENROLLMENT-002', async () => {
      const w = world();
      const coupon = restricted(w);
      await serverCode(w.client.grantCoupon(coupon.id, { email: 'unknown@school.example' }), 'ENROLLMENT-002');
      await serverCode(w.client.grantCoupon(coupon.id, { userId: w.s.deleted.id }), 'ENROLLMENT-002');
      await serverCode(w.client.grantCoupon(coupon.id, { email: 'other-member@school.example' }), 'ENROLLMENT-002');
      await serverCode(w.client.grantCoupon(coupon.id, { userId: w.other.member.id }), 'ENROLLMENT-002');
      expect(w.sim.school().anyUserByEmail('unknown@school.example')).toBeUndefined();
    });

    it('COUPON-005: neither userId nor email (checked by the server too)', async () => {
      const w = world();
      await serverCode(w.send(CreateCouponGrantDocument, { couponId: restricted(w).id }), 'COUPON-005');
    });

    it('COUPON-006: both userId and email (checked by the server too)', async () => {
      const w = world();
      await serverCode(w.send(CreateCouponGrantDocument, { couponId: restricted(w).id, userId: w.s.alice.id, email: 'alice@school.example' }), 'COUPON-006');
    });

    it('COUPON-001: the coupon must exist in the school (not another school\'s, not deleted)', async () => {
      const w = world();
      await serverCode(w.client.grantCoupon(w.other.coupon.id, { userId: w.s.alice.id }), 'COUPON-001');
      await serverCode(w.client.grantCoupon(restricted(w, { deleted: true }).id, { userId: w.s.alice.id }), 'COUPON-001');
    });

    it('COUPON-003: the coupon must be restricted', async () => {
      const w = world();
      await serverCode(w.client.grantCoupon(w.s.school.addCoupon({ restricted: false }).id, { userId: w.s.alice.id }), 'COUPON-003');
    });

    it('granting sends no email, in-app message or webhook to the member', async () => {
      const w = world();
      await w.client.grantCoupon(restricted(w).id, { userId: w.s.alice.id });
      expect(w.sim.outbox()).toEqual([]);
      expect(w.sim.webhooks()).toEqual([]);
    });

    it('restricted coupon: each grant is one single use and redemptionLimit is not enforced', async () => {
      const w = world();
      const coupon = restricted(w, { redemptionLimit: 1 });
      const a = await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id });
      const b = await w.client.grantCoupon(coupon.id, { userId: w.s.bob.id });
      w.sim.redeemGrant(a.grant.id);
      w.sim.redeemGrant(b.grant.id);
      expect(() => w.sim.redeemGrant(a.grant.id)).toThrow(/no unused grant/);
      expect(w.sim.school().tables.coupons.get(coupon.id)?.appliedCount).toBe(2);
    });

    it('payment.paid: coupon.code is the code used, coupon.id a discount code of the coupon (not the coupon id), user the member', async () => {
      const w = world();
      const coupon = restricted(w);
      const { grant } = await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id });
      const webhook = w.sim.redeemGrant(grant.id);
      expect(webhook).toMatchObject({ type: 'payment.paid', data: { coupon: { code: 'VIP' }, user: { id: w.s.alice.id } } });
      expect(webhook.data.coupon.id).not.toBe(coupon.id);
    });
  });

  describe('revokeCouponGrant', () => {
    const world = useWorld(target);

    it('granted -> revoked (revokedAt set)', async () => {
      const w = world();
      const { grant } = await w.client.grantCoupon(restricted(w).id, { userId: w.s.alice.id });
      w.clock.advance(5_000);
      expect(await w.client.revokeCouponGrant(grant.id)).toMatchObject({ id: grant.id, status: 'revoked', revokedAt: NOW + 5 });
    });

    it('expired -> revoked', async () => {
      const w = world();
      const { grant } = await w.client.grantCoupon(restricted(w, { expiredAt: NOW + 1 }).id, { userId: w.s.alice.id });
      w.clock.advance(2_000);
      expect((await w.client.revokeCouponGrant(grant.id)).status).toBe('revoked');
    });

    it('redeemed -> revoked; the redemption is not undone', async () => {
      const w = world();
      const coupon = restricted(w);
      const { grant } = await w.client.grantCoupon(coupon.id, { userId: w.s.alice.id });
      w.sim.redeemGrant(grant.id);
      const revoked = await w.client.revokeCouponGrant(grant.id);
      expect(revoked).toMatchObject({ status: 'revoked', redeemedAt: NOW });
      expect(w.sim.school().tables.coupons.get(coupon.id)?.appliedCount).toBe(1);
      expect(w.sim.webhooks()).toHaveLength(1);
    });

    it('COUPON-004: grant not found (another school\'s) or already revoked', async () => {
      const w = world();
      await serverCode(w.client.revokeCouponGrant(w.other.grant.id), 'COUPON-004');
      const { grant } = await w.client.grantCoupon(restricted(w).id, { userId: w.s.alice.id });
      await w.client.revokeCouponGrant(grant.id);
      await serverCode(w.client.revokeCouponGrant(grant.id), 'COUPON-004');
    });
  });
}
