import { describe, expectTypeOf, it } from 'vitest';
import { GUARANTEED_FIELDS, shapeOf, type GuaranteedKeys, type Unchecked } from '../../src/client/types/guaranteed-fields.js';
import type {
  AttendeeRatingFieldsFragment,
  ConsultingMeetingFieldsFragment,
  ConsultingServiceFieldsFragment,
  CouponFieldsFragment,
  CouponGrantFieldsFragment,
  EnrollStudentToConsultingMeetingMutation,
  UpdateCouponWithGrantsMutation,
  SubscriptionFieldsFragment,
} from '../../src/generated/graphql.js';
import type {
  AdminClient,
  AdminUser,
  AttendeeRating,
  BulkResult,
  ConsultingMeeting,
  ConsultingService,
  Coupon,
  CouponGrant,
  CouponGrantStatus,
  CouponType,
  CouponWithGrants,
  DiscardedConsultingService,
  EnrollResult,
  GrantResult,
  MeetingHostingType,
  MeetingState,
  RescheduleResult,
  RowError,
  RevokedCouponGrant,
  Subscription,
  SubscriptionState,
} from '../../src/index.js';
import type { SameKeys } from './same-keys.js';

declare const admin: AdminClient;

describe('enumerated strings are literal unions with a forward-compatible escape', () => {
  it('the unions hold exactly the values the spec lists', () => {
    expectTypeOf<CouponGrantStatus>().toEqualTypeOf<'granted' | 'redeemed' | 'revoked' | 'expired'>();
    expectTypeOf<SubscriptionState>().toEqualTypeOf<'active' | 'incomplete' | 'incomplete_expired' | 'trialing' | 'past_due' | 'canceled' | 'expired'>();
    expectTypeOf<MeetingState>().toEqualTypeOf<'available' | 'scheduled' | 'canceled'>();
    expectTypeOf<CouponType>().toEqualTypeOf<'fixed_amount' | 'percentage'>();
    expectTypeOf<MeetingHostingType>().toEqualTypeOf<'videoconf' | 'live_session' | 'custom'>();
  });

  it('result fields offer the documented values and still accept a value a newer server sends', () => {
    expectTypeOf<CouponGrant['status']>().toEqualTypeOf<CouponGrantStatus | (string & {})>();
    expectTypeOf<Subscription['state']>().toEqualTypeOf<SubscriptionState | (string & {})>();
    expectTypeOf<ConsultingMeeting['state']>().toEqualTypeOf<MeetingState | (string & {})>();
    expectTypeOf<Coupon['couponType']>().toEqualTypeOf<CouponType | (string & {})>();
    expectTypeOf<ConsultingMeeting['hostingType']>().toEqualTypeOf<MeetingHostingType | (string & {}) | null>();
    expectTypeOf<'on_hold'>().toExtend<CouponGrant['status']>();
  });

  it('a documented value compares without a cast; a value outside the known union needs no cast either', async () => {
    const grant = await admin.revokeCouponGrant('g');
    expectTypeOf(grant.status === 'redeemed').toEqualTypeOf<boolean>();
    const known: CouponGrantStatus[] = ['granted', 'redeemed', 'revoked', 'expired'];
    expectTypeOf(known.includes(grant.status as CouponGrantStatus)).toEqualTypeOf<boolean>();
  });
});

describe('non-null where a successful payload guarantees the field', () => {
  it('the issue examples: enrollStudent(...).user, meeting.startedAt/endedAt, coupon.code', async () => {
    const enrolled = await admin.enrollStudent('m', { userId: 'u' });
    expectTypeOf(enrolled.user).toEqualTypeOf<AdminUser>();
    expectTypeOf(enrolled.meeting.startedAt).toEqualTypeOf<number>();
    expectTypeOf(enrolled.meeting.endedAt).toEqualTypeOf<number>();
    expectTypeOf((await admin.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20 })).code).toEqualTypeOf<string>();
  });

  it('the fields each result guarantees, decided field by field from the spec', () => {
    expectTypeOf<GuaranteedKeys<Subscription>>().toEqualTypeOf<'id' | 'currentPeriodEnd' | 'isCanceling' | 'isCancellable' | 'planId' | 'state' | 'plan' | 'user'>();
    expectTypeOf<GuaranteedKeys<ConsultingService>>().toEqualTypeOf<'id' | 'name' | 'slug' | 'published' | 'courseId' | 'effectiveTimezone'>();
    expectTypeOf<GuaranteedKeys<DiscardedConsultingService>>().toEqualTypeOf<GuaranteedKeys<ConsultingService> | 'discardedAt'>();
    expectTypeOf<GuaranteedKeys<ConsultingMeeting>>().toEqualTypeOf<'id' | 'title' | 'state' | 'startedAt' | 'endedAt' | 'serviceId' | 'hostUserId'>();
    expectTypeOf<GuaranteedKeys<AttendeeRating>>().toEqualTypeOf<'userId'>();
    expectTypeOf<NonNullable<AttendeeRating['rate']>['score']>().toEqualTypeOf<number>();
    expectTypeOf<GuaranteedKeys<Coupon>>().toEqualTypeOf<'id' | 'name' | 'code' | 'couponType' | 'amount' | 'active' | 'restricted' | 'oncePerUser'>();
    expectTypeOf<GuaranteedKeys<CouponGrant>>().toEqualTypeOf<'id' | 'status' | 'grantedAt'>();
    expectTypeOf<GuaranteedKeys<RevokedCouponGrant>>().toEqualTypeOf<GuaranteedKeys<CouponGrant> | 'revokedAt'>();
    expectTypeOf<GuaranteedKeys<EnrollResult>>().toEqualTypeOf<'meeting' | 'user'>();
    expectTypeOf<GuaranteedKeys<RescheduleResult>>().toEqualTypeOf<'fromMeeting' | 'toMeeting'>();
    expectTypeOf<GuaranteedKeys<GrantResult>>().toEqualTypeOf<'grant' | 'created'>();
  });

  it('fields the spec leaves optional stay nullable', () => {
    expectTypeOf<Subscription['currentPeriodStart']>().toEqualTypeOf<number | null>();
    expectTypeOf<ConsultingMeeting['maxAttendeeCapacity']>().toEqualTypeOf<number | null>();
    expectTypeOf<ConsultingMeeting['lecturerId']>().toEqualTypeOf<string | null>();
    expectTypeOf<Coupon['expiredAt']>().toEqualTypeOf<number | null>();
    expectTypeOf<CouponGrant['redeemedAt']>().toEqualTypeOf<number | null>();
    expectTypeOf<BulkResult['results'][number]['meeting']>().toEqualTypeOf<ConsultingMeeting | null>();
  });

  it('"BulkRow.errors and BulkResult.errors are both arrays, empty when there is nothing" (issue 30): no null to guard under strict', () => {
    expectTypeOf<BulkResult['results'][number]['errors']>().toEqualTypeOf<RowError[]>();
    expectTypeOf<BulkResult['errors']>().toEqualTypeOf<string[]>();
  });

  it('deleteConsultingService and revokeCouponGrant resolve to the narrower types the spec promises', () => {
    expectTypeOf(admin.deleteConsultingService('s')).resolves.toEqualTypeOf<DiscardedConsultingService>();
    expectTypeOf(admin.revokeCouponGrant('g')).resolves.toEqualTypeOf<RevokedCouponGrant>();
    expectTypeOf<DiscardedConsultingService['discardedAt']>().toEqualTypeOf<number>();
    expectTypeOf<RevokedCouponGrant['revokedAt']>().toEqualTypeOf<number>();
  });
});

describe('one table of guaranteed fields, tied to the types', () => {
  it('shapeOf refuses a table entry that leaves out a non-null field of its type', () => {
    shapeOf<ConsultingMeeting>('ConsultingMeeting')(['id', 'title', 'state', 'startedAt', 'endedAt', 'serviceId', 'hostUserId'], {});
    // @ts-expect-error hostUserId is non-null in ConsultingMeeting, so the check must cover it
    shapeOf<ConsultingMeeting>('ConsultingMeeting')(['id', 'title', 'state', 'startedAt', 'endedAt', 'serviceId'], {});
    // @ts-expect-error a nullable field cannot be declared guaranteed (the type would have to say so first)
    shapeOf<ConsultingMeeting>('ConsultingMeeting')(['id', 'title', 'state', 'startedAt', 'endedAt', 'serviceId', 'hostUserId', 'joinUrl'], {});
    // @ts-expect-error every object-valued field needs a nested shape (Subscription.plan, .user)
    shapeOf<Subscription>('Subscription')(['id', 'currentPeriodEnd', 'isCanceling', 'isCancellable', 'planId', 'state', 'plan', 'user'], {});
  });

  it('every result a method resolves to has its entry', () => {
    expectTypeOf(GUARANTEED_FIELDS.EnrollResult.required).toEqualTypeOf<readonly ('meeting' | 'user')[]>();
    expectTypeOf(GUARANTEED_FIELDS).toHaveProperty('RescheduleResult');
    expectTypeOf(GUARANTEED_FIELDS).toHaveProperty('GrantResult');
  });
});

describe('our result interfaces describe exactly what the documents select', () => {
  it('same fields as the generated selections', () => {
    expectTypeOf<SameKeys<Subscription, SubscriptionFieldsFragment>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<ConsultingService, ConsultingServiceFieldsFragment>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<ConsultingMeeting, ConsultingMeetingFieldsFragment>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<AttendeeRating, AttendeeRatingFieldsFragment>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<Coupon, CouponFieldsFragment>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<CouponWithGrants, NonNullable<UpdateCouponWithGrantsMutation['updateCoupon']['coupon']>>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<CouponGrant, CouponGrantFieldsFragment>>().toEqualTypeOf<true>();
    expectTypeOf<SameKeys<AdminUser, NonNullable<EnrollStudentToConsultingMeetingMutation['enrollStudentToConsultingMeeting']['user']>>>().toEqualTypeOf<true>();
  });

  it('what the server sends fits our types once the guaranteed fields are checked (only nullability differs)', () => {
    expectTypeOf<SubscriptionFieldsFragment>().toExtend<Unchecked<Subscription>>();
    expectTypeOf<ConsultingServiceFieldsFragment>().toExtend<Unchecked<ConsultingService>>();
    expectTypeOf<ConsultingMeetingFieldsFragment>().toExtend<Unchecked<ConsultingMeeting>>();
    expectTypeOf<AttendeeRatingFieldsFragment>().toExtend<Unchecked<AttendeeRating>>();
    expectTypeOf<CouponGrantFieldsFragment>().toExtend<Unchecked<CouponGrant>>();
    // BigInt timestamps arrive as numbers or digit strings; the client turns them into numbers.
    expectTypeOf<Omit<CouponFieldsFragment, 'startedAt' | 'expiredAt'>>().toExtend<Unchecked<Omit<Coupon, 'startedAt' | 'expiredAt'>>>();
  });
});

describe('createCoupon / updateCoupon: the grants in the result type only when asked for', () => {
  it('by default the result has no grants; with { includeGrants: true } it has them', () => {
    expectTypeOf<Coupon>().not.toHaveProperty('grants');
    expectTypeOf(admin.updateCoupon('c', { active: false })).resolves.toEqualTypeOf<Coupon>();
    expectTypeOf(admin.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20 }, { includeGrants: false, timeoutMs: 5_000 })).resolves.toEqualTypeOf<Coupon>();
    expectTypeOf(admin.updateCoupon('c', {}, { includeGrants: true })).resolves.toEqualTypeOf<CouponWithGrants>();
    expectTypeOf(admin.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20 }, { includeGrants: true })).resolves.toEqualTypeOf<CouponWithGrants>();
    expectTypeOf<CouponWithGrants['grants']>().toEqualTypeOf<CouponGrant[] | null>();
  });

  it('a flag known only at run time does not compile: branch on it, so each result has its own type', () => {
    const flag = Math.random() > 0.5;
    // @ts-expect-error `includeGrants: boolean` matches neither overload
    void admin.updateCoupon('c', {}, { includeGrants: flag });
  });
});
