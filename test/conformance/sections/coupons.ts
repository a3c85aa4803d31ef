import { describe, expect, it } from 'vitest';
import { CreateCouponDocument, UpdateCouponDocument } from '../../../src/generated/graphql.js';
import { PayloadError } from '../../../src/index.js';
import { COUPON_MESSAGES } from '../../../src/testing/index.js';
import { DAY, NOW } from '../support/fixture.js';
import type { ConformanceTarget } from '../support/targets.js';
import { serverCode, useWorld } from '../support/world.js';

const base = { name: 'Spring', couponType: 'percentage', amount: 10 } as const;

/** createCoupon and updateCoupon: defaults, codes, bounds, partial updates and their errors. */
export function couponsSection(target: ConformanceTarget): void {
  describe('createCoupon', () => {
    const world = useWorld(target);

    it('defaults: active true, oncePerUser false, restricted false, unlimited redemptions, no dates', async () => {
      const w = world();
      const coupon = await w.client.createCoupon(base);
      expect(coupon).toMatchObject({ active: true, oncePerUser: false, restricted: false, redemptionLimit: null, startedAt: null, expiredAt: null, appliedCount: 0 });
      expect(coupon.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    });

    it('the result leaves the grants out unless asked for them; a new coupon has none', async () => {
      const w = world();
      expect(await w.client.createCoupon(base)).not.toHaveProperty('grants');
      expect(await w.client.createCoupon({ ...base, code: 'WITHGRANTS' }, { includeGrants: true })).toMatchObject({ code: 'WITHGRANTS', grants: [] });
    });

    it('payload: coupon set and errors null on success', async () => {
      const w = world();
      const data = await w.send('mutation($input: AdminCouponInput!) { createCoupon(input: $input) { coupon { name } errors } }', { input: base });
      expect(data).toEqual({ createCoupon: { coupon: { name: 'Spring' }, errors: null } });
    });

    it('a readable 6-character code is generated when code is omitted', async () => {
      const w = world();
      expect((await w.client.createCoupon(base)).code).toMatch(/^[A-Z2-9]{6}$/);
    });

    it('all whitespace is stripped from code', async () => {
      const w = world();
      expect((await w.client.createCoupon({ ...base, code: ' SUM MER\t26 ' })).code).toBe('SUMMER26');
    });

    it('code is unique among non-deleted coupons and discount codes (deactivated ones still hold theirs)', async () => {
      const w = world();
      w.s.school.addCoupon({ code: 'TAKEN', active: false });
      w.s.school.addDiscountCode({ code: 'DISCOUNT' });
      w.s.school.addCoupon({ code: 'FREED', deleted: true });
      for (const code of ['TAKEN', 'discount']) {
        const error = await w.client.createCoupon({ ...base, code }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PayloadError);
        expect((error as PayloadError).messages).toEqual([COUPON_MESSAGES.codeTaken]);
      }
      expect((await w.client.createCoupon({ ...base, code: 'FREED' })).code).toBe('FREED');
    });

    it('COUPON-002: a couponType other than fixed_amount or percentage (checked by the server too)', async () => {
      const w = world();
      await serverCode(w.send(CreateCouponDocument, { input: { ...base, couponType: 'free_lunch' } }), 'COUPON-002');
    });

    it.each([[0], [-5], [100.5]])('percentage amount %d is rejected: greater than 0 and at most 100 (checked by the server too)', async (amount) => {
      const w = world();
      const data = await w.send(CreateCouponDocument, { input: { ...base, amount } });
      expect(data).toEqual({ createCoupon: { coupon: null, errors: [COUPON_MESSAGES.percentageBounds] } });
    });

    it('percentage amount 100 and fixed_amount amounts in the school currency are accepted', async () => {
      const w = world();
      expect((await w.client.createCoupon({ ...base, amount: 100 })).amount).toBe(100);
      expect((await w.client.createCoupon({ ...base, couponType: 'fixed_amount', amount: 250 })).amount).toBe(250);
    });

    it('expiredAt must be after startedAt (checked by the server too)', async () => {
      const w = world();
      const data = await w.send(CreateCouponDocument, { input: { ...base, startedAt: NOW + DAY, expiredAt: NOW + DAY } });
      expect(data).toEqual({ createCoupon: { coupon: null, errors: [COUPON_MESSAGES.expiryNotAfterStart] } });
    });

    it('startedAt / expiredAt are BigInt Unix timestamps (numbers or strings of digits)', async () => {
      const w = world();
      const data = await w.send(CreateCouponDocument, { input: { ...base, startedAt: String(NOW), expiredAt: NOW + DAY } });
      expect(data).toMatchObject({ createCoupon: { coupon: { startedAt: NOW, expiredAt: NOW + DAY } } });
    });

    it('itemIds: applies to everything when omitted or empty; IDs outside the school\'s selectable catalog are ignored', async () => {
      const w = world();
      const product = w.s.school.addProduct({ kind: 'event', name: 'Meetup' });
      expect((await w.client.createCoupon(base)).id).toBeTruthy();
      const coupon = await w.client.createCoupon({ ...base, itemIds: [w.s.course.id, product.id, w.s.monthly.id, w.other.course.id, 'nope'] });
      expect(w.sim.school().tables.coupons.get(coupon.id)?.itemIds).toEqual([w.s.course.id, product.id, w.s.monthly.id]);
    });

    it('redemptionLimit and oncePerUser are stored; restricted: true makes it grant-only', async () => {
      const w = world();
      const coupon = await w.client.createCoupon({ ...base, redemptionLimit: 5, oncePerUser: true, restricted: true });
      expect(coupon).toMatchObject({ redemptionLimit: 5, oncePerUser: true, restricted: true });
    });
  });

  describe('updateCoupon', () => {
    const world = useWorld(target);

    it('partial: omitted fields keep their values', async () => {
      const w = world();
      const seeded = w.s.school.addCoupon({ name: 'Old', code: 'KEEP', amount: 20, redemptionLimit: 3 });
      const coupon = await w.client.updateCoupon(seeded.id, { name: 'New' });
      expect(coupon).toMatchObject({ name: 'New', code: 'KEEP', amount: 20, redemptionLimit: 3, couponType: 'percentage' });
    });

    it('null clears description, startedAt, expiredAt; null redemptionLimit makes it unlimited', async () => {
      const w = world();
      const seeded = w.s.school.addCoupon({ startedAt: NOW, expiredAt: NOW + DAY, redemptionLimit: 3 });
      w.sim.school().tables.coupons.get(seeded.id)!.description = 'note';
      const coupon = await w.client.updateCoupon(seeded.id, { description: null, startedAt: null, expiredAt: null, redemptionLimit: null });
      expect(coupon).toMatchObject({ startedAt: null, expiredAt: null, redemptionLimit: null });
      expect(w.sim.school().tables.coupons.get(seeded.id)?.description).toBeNull();
    });

    it('active: false deactivates; explicit null is ignored for active and oncePerUser', async () => {
      const w = world();
      const seeded = w.s.school.addCoupon({ oncePerUser: true });
      expect((await w.client.updateCoupon(seeded.id, { active: false })).active).toBe(false);
      const coupon = await w.client.updateCoupon(seeded.id, { active: null, oncePerUser: null });
      expect(coupon).toMatchObject({ active: false, oncePerUser: true });
    });

    it('expiredAt must be after startedAt (the stored startedAt counts)', async () => {
      const w = world();
      const seeded = w.s.school.addCoupon({ startedAt: NOW + DAY });
      const data = await w.send(UpdateCouponDocument, { id: seeded.id, input: { expiredAt: NOW } });
      expect(data).toEqual({ updateCoupon: { coupon: null, errors: [COUPON_MESSAGES.expiryNotAfterStart] } });
    });

    it('a type change needs a matching amount', async () => {
      const w = world();
      const seeded = w.s.school.addCoupon({ couponType: 'fixed_amount', amount: 500 });
      const data = await w.send(UpdateCouponDocument, { id: seeded.id, input: { couponType: 'percentage' } });
      expect(data).toEqual({ updateCoupon: { coupon: null, errors: [COUPON_MESSAGES.percentageBounds] } });
      expect((await w.client.updateCoupon(seeded.id, { couponType: 'percentage', amount: 50 })).couponType).toBe('percentage');
    });

    it('itemIds replaces the selection; [] = everything; null or omitted = unchanged; held IDs outside the catalog are kept', async () => {
      const w = world();
      const seeded = w.s.school.addCoupon({ itemIds: ['retired-product', w.s.course.id] });
      const stored = () => w.sim.school().tables.coupons.get(seeded.id)?.itemIds;
      await w.client.updateCoupon(seeded.id, { itemIds: ['retired-product', w.s.monthly.id, 'unknown'] });
      expect(stored()).toEqual(['retired-product', w.s.monthly.id]);
      await w.client.updateCoupon(seeded.id, { itemIds: null });
      await w.client.updateCoupon(seeded.id, { name: 'Same items' });
      expect(stored()).toEqual(['retired-product', w.s.monthly.id]);
      await w.client.updateCoupon(seeded.id, { itemIds: [] });
      expect(stored()).toEqual([]);
    });

    it('code and restricted cannot be changed: the input has no such fields', async () => {
      const w = world();
      const seeded = w.s.school.addCoupon({ code: 'FIXED' });
      const error = await w.send(UpdateCouponDocument, { id: seeded.id, input: { code: 'OTHER', restricted: true } }).catch((e: unknown) => e);
      expect(String((error as Error).message)).toMatch(/code|restricted/);
      expect(w.sim.school().tables.coupons.get(seeded.id)).toMatchObject({ code: 'FIXED', restricted: false });
    });

    it('COUPON-001: unknown coupon (another school\'s, or deleted)', async () => {
      const w = world();
      await serverCode(w.client.updateCoupon(w.other.coupon.id, { name: 'X' }), 'COUPON-001');
      const deleted = w.s.school.addCoupon({ deleted: true });
      await serverCode(w.client.updateCoupon(deleted.id, { name: 'X' }), 'COUPON-001');
    });

    it('COUPON-002: invalid coupon type (checked by the server too)', async () => {
      const w = world();
      const seeded = w.s.school.addCoupon();
      await serverCode(w.send(UpdateCouponDocument, { id: seeded.id, input: { couponType: 'bogus' } }), 'COUPON-002');
    });
  });
}
