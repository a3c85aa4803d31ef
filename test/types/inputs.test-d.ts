import { describe, expectTypeOf, it } from 'vitest';
import type {
  AdminConsultingMeetingBulkInput,
  AdminConsultingMeetingUpdateInput,
  AdminConsultingServiceInput,
  AdminConsultingServiceUpdateInput,
  AdminCouponInput,
  AdminCouponUpdateInput,
  AnswerInput as GeneratedAnswerInput,
} from '../../src/generated/graphql.js';
import type {
  AdminClient,
  AnswerInput,
  ConsultingServiceInput,
  ConsultingServiceUpdateInput,
  CouponInput,
  CouponUpdateInput,
  MeetingRowInput,
  MeetingUpdateInput,
  Timestamp,
} from '../../src/index.js';
import type { SameKeys } from './same-keys.js';

declare const admin: AdminClient;

/** An input as sent: `Timestamp` fields already converted to Unix seconds (what the client does before sending). */
type AsSent<T> = { [K in keyof T]: Date extends T[K] ? Exclude<T[K], Date> : T[K] };

describe('our input interfaces are what the documents send', () => {
  it('same fields as the generated GraphQL input types', () => {
    expectTypeOf<SameKeys<ConsultingServiceInput, AdminConsultingServiceInput>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<ConsultingServiceUpdateInput, AdminConsultingServiceUpdateInput>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<MeetingRowInput, AdminConsultingMeetingBulkInput>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<MeetingUpdateInput, AdminConsultingMeetingUpdateInput>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<CouponInput, AdminCouponInput>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<CouponUpdateInput, AdminCouponUpdateInput>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<AnswerInput, GeneratedAnswerInput>>().toEqualTypeOf<true>();
  });

  it('everything they accept (timestamps converted) is accepted by the schema', () => {
    expectTypeOf<ConsultingServiceInput>().toExtend<AdminConsultingServiceInput>();
    expectTypeOf<ConsultingServiceUpdateInput>().toExtend<AdminConsultingServiceUpdateInput>();
    expectTypeOf<AsSent<MeetingRowInput>>().toExtend<AdminConsultingMeetingBulkInput>();
    expectTypeOf<AsSent<MeetingUpdateInput>>().toExtend<AdminConsultingMeetingUpdateInput>();
    expectTypeOf<AsSent<CouponInput>>().toExtend<AdminCouponInput>();
    expectTypeOf<AsSent<CouponUpdateInput>>().toExtend<AdminCouponUpdateInput>();
    expectTypeOf<AnswerInput>().toExtend<GeneratedAnswerInput>();
  });

  it('timestamps take Unix seconds or a Date', () => {
    expectTypeOf<MeetingRowInput['startedAt']>().toEqualTypeOf<Timestamp>();
    expectTypeOf<CouponUpdateInput['expiredAt']>().toEqualTypeOf<Timestamp | null | undefined>();
  });
});

describe('inputs keep accepting the documented values and refuse others', () => {
  it('couponType: fixed_amount or percentage', () => {
    void admin.createCoupon({ name: 'x', couponType: 'fixed_amount', amount: 5 });
    void admin.updateCoupon('c', { couponType: 'percentage', amount: 50 });
    // @ts-expect-error any other type is refused (COUPON-002)
    void admin.createCoupon({ name: 'x', couponType: 'free_lunch', amount: 5 });
  });

  it('hostingType: videoconf, live_session or custom', () => {
    void admin.bulkCreateMeetings('svc', [{ startedAt: 1, endedAt: 2, hostingType: 'custom', joinUrl: 'https://meet.example' }]);
    void admin.updateMeeting('m', { hostingType: 'videoconf' });
    // @ts-expect-error not a documented hosting type
    void admin.updateMeeting('m', { hostingType: 'zoom' });
  });
});
