import type { IdGenerator } from '../model/id-generator.js';
import type { CouponRecord, MeetingRecord, PlanRecord, ServiceRecord, SubscriptionRecord } from '../model/records.js';
import type { SchoolProfile } from '../model/school.js';
import type { CouponSeed, MeetingSeed, SubscriptionSeed } from './seed-inputs.js';

/*
 * The records the seeder stores, with the defaults its inputs document. `now` is Unix seconds.
 */

const DAY = 86_400;

/** `value` unless it is undefined (null is kept: it means "none"). */
function given<T>(value: T | undefined, fallback: T): T {
  return value === undefined ? fallback : value;
}

/** A subscription; periodic plans get a 30-day period around now, recurring ones a next charge. */
export function buildSubscription(ids: IdGenerator, now: number, plan: PlanRecord, seed: SubscriptionSeed): SubscriptionRecord {
  const periodic = !plan.lifetime;
  return {
    id: seed.id ?? ids.uuid(),
    userId: seed.userId,
    planId: seed.planId,
    state: seed.state ?? 'active',
    isCanceling: seed.isCanceling ?? false,
    isCancellable: seed.isCancellable ?? periodic,
    currentPeriodStart: given(seed.currentPeriodStart, periodic ? now - 10 * DAY : null),
    currentPeriodEnd: given(seed.currentPeriodEnd, periodic ? now + 20 * DAY : null),
    startAt: given(seed.startAt, now - 100 * DAY),
    endAt: seed.endAt ?? null,
    nextChargeDate: given(seed.nextChargeDate, plan.recurring ? now + 20 * DAY : null),
  };
}

/** A meeting; `scheduled` with attendees, `canceled` when asked, else `available`. */
export function buildMeeting(ids: IdGenerator, now: number, profile: SchoolProfile, service: ServiceRecord, seed: MeetingSeed): MeetingRecord {
  const attendeeIds = [...(seed.attendeeIds ?? [])];
  return {
    id: seed.id ?? ids.uuid(),
    serviceId: service.id,
    title: seed.title ?? service.name,
    description: seed.description ?? null,
    state: seed.canceled ? 'canceled' : attendeeIds.length > 0 ? 'scheduled' : 'available',
    startedAt: seed.startedAt,
    endedAt: seed.endedAt,
    lecturerId: seed.lecturerId ?? service.lecturerId,
    hostUserId: seed.hostUserId ?? profile.ownerId,
    hostEmail: seed.hostEmail ?? null,
    hostingType: seed.hostingType ?? null,
    hostingId: null,
    joinUrl: seed.joinUrl ?? null,
    maxAttendeeCapacity: seed.maxAttendeeCapacity ?? null,
    price: seed.price ?? null,
    currency: profile.currency,
    attendeeIds,
    discardedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** A coupon: percentage 10, active, unrestricted, a generated code unless given. */
export function buildCoupon(ids: IdGenerator, now: number, seed: CouponSeed): CouponRecord {
  return {
    id: seed.id ?? ids.uuid(),
    name: seed.name ?? 'Coupon',
    code: seed.code ?? ids.couponCode(),
    couponType: seed.couponType ?? 'percentage',
    amount: seed.amount ?? 10,
    description: null,
    active: seed.active ?? true,
    restricted: seed.restricted ?? false,
    oncePerUser: seed.oncePerUser ?? false,
    redemptionLimit: seed.redemptionLimit ?? null,
    startedAt: seed.startedAt ?? null,
    expiredAt: seed.expiredAt ?? null,
    itemIds: seed.itemIds ?? [],
    appliedCount: 0,
    deletedAt: seed.deleted ? now : null,
    createdAt: now,
    updatedAt: now,
  };
}
