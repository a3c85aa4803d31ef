import { describe, expect, it } from 'vitest';
import { PayloadError } from '../../src/index.js';
import { coupon, grant } from '../support/fixtures.js';
import { useScriptedAdminApi, testClient } from '../support/scripted-admin-api.js';

const api = useScriptedAdminApi();

describe('createCoupon', () => {
  it('sends the input (Dates as Unix seconds) and returns the coupon with BigInt timestamps as numbers', async () => {
    api.data({ createCoupon: { coupon: coupon({ startedAt: '1800000000', expiredAt: '1900000000' }), errors: null } });
    const created = await testClient().createCoupon({
      name: 'VIP',
      couponType: 'percentage',
      amount: 20,
      restricted: true,
      startedAt: new Date(1_800_000_000_000),
      expiredAt: 1_900_000_000,
    });
    expect(api.last.variables).toEqual({
      input: { name: 'VIP', couponType: 'percentage', amount: 20, restricted: true, startedAt: 1_800_000_000, expiredAt: 1_900_000_000 },
    });
    expect(created).toMatchObject({ code: 'VIP20X', startedAt: 1_800_000_000, expiredAt: 1_900_000_000 });
  });

  it('"coupon (null when errors present), errors (validation messages)" -> PayloadError', async () => {
    api.data({ createCoupon: { coupon: null, errors: ['Code has already been taken'] } });
    const error = await testClient().createCoupon({ name: 'VIP', couponType: 'fixed_amount', amount: 5, code: 'TAKEN' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PayloadError);
    expect((error as PayloadError).messages).toEqual(['Code has already been taken']);
  });
});

describe('updateCoupon', () => {
  it('sends id and the partial input (null clears)', async () => {
    api.data({ updateCoupon: { coupon: coupon({ active: false, expiredAt: null }), errors: null } });
    const updated = await testClient().updateCoupon('c-1', { active: false, expiredAt: null });
    expect(api.last.variables).toEqual({ id: 'c-1', input: { active: false, expiredAt: null } });
    expect(updated.active).toBe(false);
  });
});

describe('grantCoupon (createCouponGrant)', () => {
  it('by email: returns the grant and created: true', async () => {
    api.data({ createCouponGrant: { grant: grant({ grantedAt: '1790000000' }), created: true, errors: null } });
    const result = await testClient().grantCoupon('c-1', { email: 'ada@example.com' });
    expect(api.last.variables).toEqual({ couponId: 'c-1', email: 'ada@example.com' });
    expect(result).toEqual({ grant: expect.objectContaining({ id: 'grant-1', status: 'granted', grantedAt: 1_790_000_000 }), created: true });
  });

  it('"created: false when the member already held an active grant" (idempotent)', async () => {
    api.data({ createCouponGrant: { grant: grant({ status: 'redeemed', redeemedAt: 1_791_000_000 }), created: false, errors: null } });
    const result = await testClient().grantCoupon('c-1', { userId: 'user-1' });
    expect(api.last.variables).toEqual({ couponId: 'c-1', userId: 'user-1' });
    expect(result.created).toBe(false);
    expect(result.grant.status).toBe('redeemed');
  });
});

describe('revokeCouponGrant', () => {
  it('returns the grant with status revoked', async () => {
    api.data({ revokeCouponGrant: { grant: grant({ status: 'revoked', revokedAt: 1_792_000_000 }), errors: null } });
    const revoked = await testClient().revokeCouponGrant('grant-1');
    expect(api.last.variables).toEqual({ grantId: 'grant-1' });
    expect(revoked).toMatchObject({ status: 'revoked', revokedAt: 1_792_000_000 });
  });
});
