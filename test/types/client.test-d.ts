import { describe, expectTypeOf, it } from 'vitest';
import {
  AdminClient,
  hasCode,
  type BulkResult,
  type ConsultingMeeting,
  type Coupon,
  type CouponGrant,
  type GrantResult,
  type RevokedCouponGrant,
  type Subscription,
} from '../../src/index.js';

declare const admin: AdminClient;

describe('typed results', () => {
  it('methods resolve to the documented result types', () => {
    expectTypeOf(admin.updateSubscriptionPeriod('s', 1)).resolves.toEqualTypeOf<Subscription>();
    expectTypeOf(admin.bulkCreateMeetings('svc', [])).resolves.toEqualTypeOf<BulkResult>();
    expectTypeOf(admin.cancelMeeting('m')).resolves.toEqualTypeOf<ConsultingMeeting>();
    expectTypeOf(admin.grantCoupon('c', { email: 'a@b.co' })).resolves.toEqualTypeOf<GrantResult>();
    expectTypeOf(admin.revokeCouponGrant('g')).resolves.toEqualTypeOf<RevokedCouponGrant>();
  });

  it('timestamps are numbers, nullable where the schema says so', () => {
    expectTypeOf<Subscription['currentPeriodStart']>().toEqualTypeOf<number | null>();
    expectTypeOf<Coupon['expiredAt']>().toEqualTypeOf<number | null>();
    expectTypeOf<CouponGrant['grantedAt']>().toEqualTypeOf<number>();
  });

  it('a wrong result access does not compile', async () => {
    const grant = await admin.grantCoupon('c', { userId: 'u' });
    // @ts-expect-error GrantResult has no `coupon`
    void grant.coupon;
    const meeting = await admin.cancelMeeting('m');
    // @ts-expect-error meetings have `state`, not `status`
    void meeting.status;
    // @ts-expect-error the attendee list's type is not shown in the spec and is not selected
    void meeting.attendees;
  });
});

describe('typed inputs', () => {
  it('a wrong input field does not compile', () => {
    // @ts-expect-error `code` cannot be changed (no such input field on update)
    void admin.updateCoupon('c', { code: 'NEW' });
    // @ts-expect-error courseId cannot be updated (no reparenting)
    void admin.updateConsultingService('s', { courseId: 'other' });
    // @ts-expect-error hostingType is an enum
    void admin.bulkCreateMeetings('svc', [{ startedAt: 1, endedAt: 2, hostingType: 'zoom' }]);
    // @ts-expect-error startedAt is required on a row
    void admin.bulkCreateMeetings('svc', [{ endedAt: 2 }]);
  });

  it('userId and email are mutually exclusive in the types too', () => {
    // @ts-expect-error both identifiers
    void admin.grantCoupon('c', { userId: 'u', email: 'a@b.co' });
    // @ts-expect-error neither identifier
    void admin.rateMeeting('m', {}, { score: 8 });
  });

  it('timestamps accept numbers and Dates', () => {
    void admin.updateSubscriptionPeriod('s', new Date());
    void admin.createCoupon({ name: 'x', couponType: 'percentage', amount: 10, startedAt: new Date(), expiredAt: 1_900_000_000 });
  });
});

describe('hasCode', () => {
  it('narrows unknown errors to CodedError', () => {
    const error: unknown = new Error('x');
    if (hasCode(error, 'MEETING-004')) {
      expectTypeOf(error.code).toEqualTypeOf<'MEETING-004'>();
      expectTypeOf(error.validOptions).toEqualTypeOf<string[] | undefined>();
    }
  });
});

describe('withOptions and per-call options', () => {
  it('withOptions returns an AdminClient and accepts only what a derived client may change', () => {
    expectTypeOf(admin.withOptions({ timeoutMs: 5_000, headers: { 'X-Job': 'sync' }, priority: 'background' })).toEqualTypeOf<AdminClient>();
    // @ts-expect-error another key is another client
    void admin.withOptions({ apiKey: 'sk_live_other' });
    // @ts-expect-error the budget is shared with the parent
    void admin.withOptions({ limits: false });
    // @ts-expect-error the parent's logger sees the derived client's calls
    void admin.withOptions({ logger: console });
  });

  it('every method takes timeoutMs, maxRetries, headers and priority per call', () => {
    void admin.grantCoupon('c', { userId: 'u' }, { timeoutMs: 1_000, maxRetries: 0, headers: { 'Idempotency-Key': 'k' }, priority: 'interactive' });
    void admin.bulkCancelMeetings(['m'], { atomic: true, priority: 'background' });
    void admin.request('query { __typename }', undefined, { idempotent: true, timeoutMs: 500 });
    // @ts-expect-error priority is 'interactive' or 'background'
    void admin.cancelMeeting('m', { priority: 'urgent' });
    // @ts-expect-error header values are strings
    void admin.cancelMeeting('m', { headers: { 'X-Count': 3 } });
  });
});

describe('environment defaults', () => {
  it('apiKey and baseUrl may be omitted (ADMIN_API_KEY and ADMIN_API_URL), the options object too', () => {
    expectTypeOf(AdminClient).toBeConstructibleWith();
    expectTypeOf(AdminClient).toBeConstructibleWith({ timeoutMs: 5_000 });
    expectTypeOf(AdminClient).toBeConstructibleWith({ apiKey: 'sk_live_x', baseUrl: 'https://school.example' });
  });
});
