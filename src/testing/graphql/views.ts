import { reportedGrantStatus } from '../model/coupon-rules.js';
import type { SchoolModel } from '../model/school.js';
import type {
  CouponRecord,
  GrantRecord,
  MeetingRecord,
  RatingRecord,
  ServiceRecord,
  SubscriptionRecord,
  UserRecord,
} from '../model/records.js';

/*
 * Views turn records into the objects graphql-js resolves fields from. They are built after a
 * mutation has run, so they show its outcome; `meetingCount` stays a function because it takes an
 * argument (graphql-js calls function-valued properties with the field's arguments).
 */

/** An `AdminUser` / `User`. */
export function userView(user: UserRecord): { id: string; name: string; email: string } {
  return { id: user.id, name: user.name, email: user.email };
}

/** An `AdminConsultingService`. */
export function serviceView(school: SchoolModel, service: ServiceRecord) {
  return {
    id: service.id,
    name: service.name,
    slug: service.slug,
    description: service.description,
    published: service.published,
    publishedAt: service.publishedAt,
    tags: [...service.settings.tags],
    backgroundColor: service.backgroundColor,
    ratingFormId: service.ratingFormId,
    ratingForm: service.ratingFormId === null ? null : { id: service.ratingFormId },
    courseId: service.targetId,
    lecturerId: service.lecturerId,
    lecturer: service.lecturerId === null ? null : { id: service.lecturerId },
    effectiveTimezone: school.tables.profile.timezone,
    discardedAt: service.discardedAt,
    createdAt: service.createdAt,
    updatedAt: service.updatedAt,
    meetingCount: ({ state }: { state?: string | null }) => {
      let count = 0;
      for (const meeting of school.tables.meetings.values()) {
        if (meeting.serviceId !== service.id || meeting.discardedAt !== null) continue;
        if (state === undefined || state === null || meeting.state === state) count += 1;
      }
      return count;
    },
  };
}

/** An `AdminConsultingAttendeeRating`. */
export function ratingView(school: SchoolModel, rating: RatingRecord) {
  const user = school.tables.users.get(rating.userId);
  return {
    userId: rating.userId,
    email: user?.email ?? null,
    name: user?.name ?? null,
    rate: rating.answers === null ? { score: rating.score, comment: rating.comment } : null,
    submission: rating.answers === null ? null : { id: rating.id },
  };
}

/** An `AdminConsultingMeeting`. */
export function meetingView(school: SchoolModel, meeting: MeetingRecord) {
  const service = school.tables.services.get(meeting.serviceId);
  const ratings = meeting.attendeeIds
    .map((userId) => school.rating(meeting.id, userId))
    .filter((rating): rating is RatingRecord => rating !== undefined);
  return {
    ...meeting,
    attendeeCount: meeting.attendeeIds.length,
    attendees: meeting.attendeeIds.map((id) => ({ id })),
    ratingForm: service?.ratingFormId ? { id: service.ratingFormId } : null,
    attendeeRatings: ratings.map((rating) => ratingView(school, rating)),
  };
}

/** An `AdminCouponGrant`. */
export function grantView(school: SchoolModel, grant: GrantRecord, now: number) {
  const coupon = school.tables.coupons.get(grant.couponId);
  const user = school.tables.users.get(grant.userId);
  return {
    id: grant.id,
    status: coupon ? reportedGrantStatus(grant, coupon, now) : grant.status,
    userName: user?.name ?? null,
    userEmail: user?.email ?? null,
    grantedByName: grant.grantedByName,
    grantedAt: grant.grantedAt,
    redeemedAt: grant.redeemedAt,
    revokedAt: grant.revokedAt,
  };
}

/**
 * An `AdminCoupon`. Its grants are read only when the document selects them (graphql-js calls a
 * function-valued field): a coupon with 100,000 grants is cheap to answer without them.
 */
export function couponView(school: SchoolModel, coupon: CouponRecord, now: number) {
  return {
    ...coupon,
    grants: () => [...school.tables.grants.values()].filter((grant) => grant.couponId === coupon.id).map((grant) => grantView(school, grant, now)),
  };
}

/** A `Subscription`. */
export function subscriptionView(school: SchoolModel, subscription: SubscriptionRecord) {
  const plan = school.tables.plans.get(subscription.planId);
  const user = school.tables.users.get(subscription.userId);
  return {
    ...subscription,
    payments: [],
    plan: { id: subscription.planId, name: plan?.name ?? null },
    user: user ? userView(user) : { id: subscription.userId, name: null, email: null },
  };
}
