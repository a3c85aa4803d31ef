import { describe, expect, it } from 'vitest';
import { createManualClock, createSimulator } from '../../src/testing/index.js';
import { createPaymentPaidMatcher } from '../../src/webhooks/index.js';

const NOW_MS = Date.UTC(2026, 10, 22, 10);

describe('payment.paid matcher against payloads of the simulated checkout', () => {
  it('tells which managed grant code each order used and by whom; other coupons give null', () => {
    const sim = createSimulator({ clock: createManualClock(NOW_MS) });
    const school = sim.addSchool();
    const ada = school.addMember({ name: 'Ada', email: 'ada@school.example' });
    const bo = school.addMember({ name: 'Bo', email: 'bo@school.example' });
    const vip = school.addCoupon({ code: 'VIP-2026', restricted: true });
    const alumni = school.addCoupon({ code: 'ALUMNI', restricted: true });
    school.addCoupon({ code: 'PUBLIC10' });
    school.addGrant({ couponId: vip.id, userId: ada.id });
    school.addGrant({ couponId: alumni.id, userId: bo.id });
    const match = createPaymentPaidMatcher([
      { id: vip.id, code: vip.code },
      { id: alumni.id, code: alumni.code },
    ]);

    // The buyer types the code in any case; the payload carries the coupon's stored code.
    const adaOrder = sim.checkout({ userId: ada.id, couponCode: 'vip-2026' });
    expect(adaOrder.data.coupon.id).not.toBe(vip.id);
    expect(match(adaOrder)).toEqual({
      kind: 'matched',
      coupon: { id: vip.id, code: 'VIP-2026' },
      code: 'VIP-2026',
      member: { userId: ada.id, email: 'ada@school.example', name: 'Ada' },
    });
    expect(match(JSON.stringify(sim.checkout({ userId: bo.id, couponCode: 'ALUMNI' })))).toMatchObject({
      kind: 'matched',
      coupon: { id: alumni.id },
      member: { userId: bo.id },
    });
    expect(match(sim.checkout({ userId: bo.id, couponCode: 'PUBLIC10' }))).toBeNull();
  });
});

describe('the matcher and the simulator agree on letter case (issue 30: "5hrs2t" vs "5HRS2T")', () => {
  it('the simulator holds a code whatever its case and takes it in any case at checkout; the matcher folds case by default', () => {
    const sim = createSimulator({ clock: createManualClock(NOW_MS) });
    const school = sim.addSchool();
    const ada = school.addMember({ name: 'Ada', email: 'ada@school.example' });
    const coupon = school.addCoupon({ code: '5HRS2T', restricted: true });
    school.addGrant({ couponId: coupon.id, userId: ada.id });
    // No other live code may differ by case alone: folding case cannot confuse two coupons.
    expect(sim.school().codeTaken('5hrs2t')).toBe(true);

    // The integrator kept the code as typed in its own admin; the buyer typed it in yet another case.
    const kept = [{ id: coupon.id, code: '5hrs2t' }];
    const order = sim.checkout({ userId: ada.id, couponCode: '5Hrs2t' });
    expect(order.data.coupon.code).toBe('5HRS2T');
    expect(createPaymentPaidMatcher(kept)(order)).toMatchObject({ kind: 'matched', coupon: { id: coupon.id }, code: '5HRS2T', member: { userId: ada.id } });
    expect(createPaymentPaidMatcher(kept, { caseInsensitive: false })(order)).toBeNull();
  });
});
