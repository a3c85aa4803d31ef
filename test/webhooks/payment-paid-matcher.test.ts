import { describe, expect, it } from 'vitest';
import {
  DuplicateCouponCodeError,
  couponCodeKey,
  createPaymentPaidMatcher,
  matchPaymentPaid,
} from '../../src/webhooks/index.js';

// The coupons the integrator created with createCoupon (restricted) and keeps track of.
const managed = [
  { id: '0b9c2a51-0000-4000-8000-000000000001', code: 'VIP2026', note: 'spring cohort' },
  { id: '0b9c2a51-0000-4000-8000-000000000002', code: 'ALUMNI 50' },
];
const member = { id: '7e1f0000-0000-4000-8000-0000000000aa', email: 'ada@example.com', name: 'Ada' };
// The id in the webhook's coupon object belongs to the coupon's discount code, not to the coupon.
const discountCodeId = 'dc000000-0000-4000-8000-000000000009';

describe('payment.paid: match on coupon.code, never coupon.id', () => {
  it('a managed code identifies the coupon and the member who paid', () => {
    const result = matchPaymentPaid({ coupon: { id: discountCodeId, code: 'VIP2026' }, user: member }, managed);
    expect(result).toEqual({
      kind: 'matched',
      coupon: managed[0],
      code: 'VIP2026',
      member: { userId: member.id, email: member.email, name: 'Ada' },
    });
  });

  it('a coupon.id equal to a managed coupon id but with another code is not a match', () => {
    expect(matchPaymentPaid({ coupon: { id: managed[0]?.id, code: 'SOMEONE-ELSES' }, user: member }, managed)).toBeNull();
  });

  it('the discount-code id in coupon.id does not prevent the match', () => {
    const result = matchPaymentPaid({ coupon: { id: discountCodeId, code: 'ALUMNI50' }, user: member }, managed);
    expect(result).toMatchObject({ kind: 'matched', coupon: { id: managed[1]?.id } });
  });

  it('an extra discount code generated for the coupon, listed beside it, does not hide the managed code', () => {
    const payload = {
      coupon: [
        { id: discountCodeId, code: 'X7K2QP' },
        { id: 'dc000000-0000-4000-8000-00000000000a', code: 'VIP2026' },
      ],
      discount_code: { id: discountCodeId, code: 'X7K2QP' },
      user: member,
    };
    expect(matchPaymentPaid(payload, managed)).toMatchObject({ kind: 'matched', code: 'VIP2026', coupon: { id: managed[0]?.id } });
  });

  it('an order without a coupon (its user named), or with a code that is not managed, gives null', () => {
    expect(matchPaymentPaid({ user: member, amount: 100 }, managed)).toBeNull();
    expect(matchPaymentPaid({ coupon: null, user: member }, managed)).toBeNull();
    expect(matchPaymentPaid({ coupon: { id: discountCodeId, code: 'PUBLIC10' }, user: member }, managed)).toBeNull();
  });
});

describe('payment.paid: codes compared as the server stores them, case folded as the simulator does', () => {
  it('whitespace is stripped on both sides ("ALUMNI 50" was stored as "ALUMNI50")', () => {
    expect(couponCodeKey(' ALUMNI 50\n', { caseInsensitive: false })).toBe('ALUMNI50');
    expect(couponCodeKey(' ALUMNI 50\n')).toBe('alumni50');
    expect(matchPaymentPaid({ coupon: { code: 'ALUMNI50' }, user: member }, managed)).toMatchObject({ kind: 'matched', code: 'ALUMNI50' });
    expect(matchPaymentPaid({ coupon: { code: ' VIP 2026 ' }, user: member }, managed)).toMatchObject({ kind: 'matched', coupon: { id: managed[0]?.id } });
  });

  it('case is folded by default (issue 30: "5hrs2t" matches "5HRS2T", as the simulator\'s checkout takes it)', () => {
    expect(matchPaymentPaid({ coupon: { code: 'vip2026' }, user: member }, managed)).toMatchObject({ kind: 'matched', code: 'vip2026', coupon: { id: managed[0]?.id } });
    expect(matchPaymentPaid({ coupon: { code: '5HRS2T' }, user: member }, [{ id: 'c', code: '5hrs2t' }])).toMatchObject({ kind: 'matched', code: '5HRS2T' });
  });

  it('caseInsensitive: false compares the stored spelling exactly', () => {
    expect(matchPaymentPaid({ coupon: { code: 'vip2026' }, user: member }, managed, { caseInsensitive: false })).toBeNull();
  });

  it('two managed coupons with the same stored code are refused when the matcher is built', () => {
    const clash = [{ id: 'a', code: 'SPRING 26' }, { id: 'b', code: 'SPRING26' }];
    expect(() => createPaymentPaidMatcher(clash)).toThrow(DuplicateCouponCodeError);
    expect(() => createPaymentPaidMatcher(clash)).toThrow(expect.objectContaining({ couponIds: ['a', 'b'] }));
    expect(() => createPaymentPaidMatcher([{ id: 'a', code: 'X' }, { id: 'b', code: 'x' }])).toThrow(DuplicateCouponCodeError);
    expect(() => createPaymentPaidMatcher([{ id: 'a', code: 'X' }, { id: 'b', code: 'x' }])).toThrow(/folding case\)\. .* pass caseInsensitive: false\./u);
    expect(() => createPaymentPaidMatcher([{ id: 'a', code: 'X' }, { id: 'b', code: 'x' }], { caseInsensitive: false })).not.toThrow();
  });
});

describe('payment.paid: where coupon and user are found', () => {
  const match = createPaymentPaidMatcher(managed);

  it.each([
    ['the top level', { event: 'payment.paid', coupon: { code: 'VIP2026' }, user: member }],
    ['data', { event: 'payment.paid', data: { coupon: { code: 'VIP2026' }, user: member } }],
    ['data.object', { type: 'payment.paid', data: { object: { coupon: { code: 'VIP2026' }, user: member } } }],
    ['a raw JSON string body', JSON.stringify({ data: { coupon: { code: 'VIP2026' }, user: member } })],
  ])('finds them at %s', (_where, payload) => {
    expect(match(payload)).toMatchObject({ kind: 'matched', member: { userId: member.id } });
  });

  it('accessors override where coupon and user are read (the escape hatch for other shapes)', () => {
    const custom = createPaymentPaidMatcher(managed, {
      accessors: {
        coupon: (payload) => (payload as { order: { discounts: unknown[] } }).order.discounts,
        user: (payload) => (payload as { order: { buyer: unknown } }).order.buyer,
      },
    });
    const payload = { order: { discounts: [{ code: 'VIP2026' }], buyer: { id: 42, email: 'b@example.com' } } };
    expect(custom(payload)).toEqual({ kind: 'matched', coupon: managed[0], code: 'VIP2026', member: { userId: '42', email: 'b@example.com', name: null } });
  });

  it('a member known by email only is still reported', () => {
    expect(match({ coupon: { code: 'VIP2026' }, user: { email: 'ada@example.com' } })).toMatchObject({
      member: { userId: null, email: 'ada@example.com', name: null },
    });
  });
});

describe('payment.paid: malformed payloads never throw', () => {
  const match = createPaymentPaidMatcher(managed);

  it.each([
    ['not JSON', '{"coupon":', 'not_json'],
    ['a number', 42, 'not_an_object'],
    ['null', null, 'not_an_object'],
    ['an array', [{ coupon: { code: 'VIP2026' } }], 'not_an_object'],
    ['a coupon without a code', { coupon: { id: discountCodeId }, user: member }, 'coupon_malformed'],
    ['a coupon that is a string', { coupon: 'VIP2026', user: member }, 'coupon_malformed'],
    ['a coupon code that is a number', { coupon: { code: 2026 }, user: member }, 'coupon_malformed'],
  ])('%s -> unrecognised (%s)', (_what, payload, reason) => {
    expect(match(payload)).toEqual({ kind: 'unrecognised', reason });
  });

  it('"no coupon used" is told from "payload not understood" (issue 30): neither coupon nor user where the matcher looks -> unrecognised (unknown_shape), not null', () => {
    // A shape the defaults do not read: coupon and user under "payload".
    const other = { type: 'payment.paid', payload: { coupon: { id: discountCodeId, code: 'VIP2026' }, user: member } };
    expect(match(other)).toEqual({ kind: 'unrecognised', reason: 'unknown_shape' });
    expect(match(JSON.stringify(other))).toEqual({ kind: 'unrecognised', reason: 'unknown_shape' });
    expect(match({})).toEqual({ kind: 'unrecognised', reason: 'unknown_shape' });
    expect(match({ coupon: null, user: null })).toEqual({ kind: 'unrecognised', reason: 'unknown_shape' });
    // Accessors that find nothing are caught the same way; pointed at the shape, they read it.
    const wrongAccessors = createPaymentPaidMatcher(managed, { accessors: { coupon: () => undefined, user: () => undefined } });
    expect(wrongAccessors(other)).toEqual({ kind: 'unrecognised', reason: 'unknown_shape' });
    const payloadOf = (body: unknown): Record<string, unknown> => (body as { payload: Record<string, unknown> }).payload;
    const fitted = createPaymentPaidMatcher(managed, { accessors: { coupon: (body) => payloadOf(body)['coupon'], user: (body) => payloadOf(body)['user'] } });
    expect(fitted(other)).toMatchObject({ kind: 'matched', code: 'VIP2026', member: { userId: member.id } });
    expect(fitted({ payload: { user: member } })).toBeNull();
  });

  it('a managed code without a usable user -> unrecognised (member_missing), naming the coupon', () => {
    for (const user of [undefined, null, {}, { id: '' }, 'ada@example.com']) {
      expect(match({ coupon: { code: 'VIP2026' }, user })).toEqual({ kind: 'unrecognised', reason: 'member_missing', coupon: managed[0] });
    }
  });

  it('an accessor or getter that throws -> unrecognised (read_failed)', () => {
    const throwing = createPaymentPaidMatcher(managed, {
      accessors: {
        coupon: () => {
          throw new Error('boom');
        },
      },
    });
    expect(throwing({ coupon: { code: 'VIP2026' } })).toEqual({ kind: 'unrecognised', reason: 'read_failed' });
    const trap = Object.defineProperty({}, 'coupon', {
      enumerable: true,
      get() {
        throw new Error('trap');
      },
    });
    expect(match(trap)).toEqual({ kind: 'unrecognised', reason: 'read_failed' });
  });
});
