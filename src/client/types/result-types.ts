import type { CouponGrantStatus, CouponType, MeetingHostingType, MeetingState, SubscriptionState } from './enumerations.js';

/*
 * The objects the typed methods resolve to, written from the spec field by field. A field is
 * non-null only where the spec makes a successful answer carry it; the client checks exactly those
 * fields (client/types/guaranteed-fields.ts) and throws `InvalidResponseError` with problem
 * `'missing_guaranteed_field'` instead of returning a null there. Timestamps are Unix seconds,
 * numbers even when the server sends strings of digits.
 */

/** The membership plan of a {@link Subscription}; fields beyond `id` and `name` are not shown in the spec. */
export interface MembershipPlan {
  /** Plan identifier. */
  id: string;
  /** Display name of the plan, when the server sends one. */
  name: string | null;
}

/** The member who owns a {@link Subscription}; fields beyond `id`, `name` and `email` are not shown in the spec. */
export interface SubscriptionOwner {
  /** Member identifier (UUID). */
  id: string;
  /** Member name, when known. */
  name: string | null;
  /** Member email, when known. */
  email: string | null;
}

/**
 * A subscription, as `updateSubscriptionPeriod` returns it after moving its period end.
 *
 * Never null in a successful result: `id`, `currentPeriodEnd`, `isCanceling`, `isCancellable`,
 * `planId`, `state`, `plan`, `user`.
 */
export interface Subscription {
  /** Subscription identifier. */
  id: string;
  /**
   * End of the current billing period (Unix seconds). Never null here: the update refuses lifetime
   * subscriptions (which have no billing periods), so a success has just set it.
   */
  currentPeriodEnd: number;
  /** Start of the current billing period (Unix seconds); null when the subscription has none. */
  currentPeriodStart: number | null;
  /** When the subscription ends (non-recurring subscriptions), in Unix seconds. */
  endAt: number | null;
  /** True when cancellation was requested and is scheduled for a future date. */
  isCanceling: boolean;
  /** Whether the subscription can be cancelled. */
  isCancellable: boolean;
  /** Next scheduled charge (Unix seconds); null for non-recurring subscriptions. */
  nextChargeDate: number | null;
  /** Identifier of the membership plan. */
  planId: string;
  /** When the subscription started (Unix seconds). */
  startAt: number | null;
  /** One of the documented {@link SubscriptionState}s, or a value the spec does not list yet. */
  state: SubscriptionState | (string & {});
  /** The membership plan. */
  plan: MembershipPlan;
  /** The member who owns the subscription. */
  user: SubscriptionOwner;
}

/**
 * A consulting service (`AdminConsultingService`): a bookable offering attached to a course,
 * grouping its meeting slots.
 *
 * Never null in a successful result: `id`, `name`, `slug`, `published`, `courseId`,
 * `effectiveTimezone`.
 */
export interface ConsultingService {
  /** Service identifier. */
  id: string;
  /** Display name (required at creation; never blank). */
  name: string;
  /** URL slug matching `^[a-z0-9-]+$`; derived from the name when none was given, so always set. */
  slug: string;
  /** Free text, when set. */
  description: string | null;
  /** Whether the service is published (a service is always either published or not). */
  published: boolean;
  /** Unix seconds of the first publish; kept when unpublished; null if never published. */
  publishedAt: number | null;
  /** Tags (stored in the service's settings), when the server sends them. */
  tags: string[] | null;
  /** Hex color, when set. */
  backgroundColor: string | null;
  /** Id of the linked feedback form (rating form), when set. */
  ratingFormId: string | null;
  /** Parent course id: required at creation and never changes. */
  courseId: string;
  /** Service-level lecturer id, when set; meetings inherit it when created without their own. */
  lecturerId: string | null;
  /**
   * IANA zone name in which the service's local times are meant; the spec has callers convert
   * meeting times with it, so it is always set.
   */
  effectiveTimezone: string;
  /** Number of the service's meetings, when the server sends it. */
  meetingCount: number | null;
  /** Unix seconds of the soft delete; null while the service is not deleted. */
  discardedAt: number | null;
  /** Creation time (Unix seconds), when the server sends it. */
  createdAt: number | null;
  /** Last update time (Unix seconds), when the server sends it. */
  updatedAt: number | null;
}

/**
 * The service `deleteConsultingService` returns: soft-deleted, so `discardedAt` is never null (on
 * top of the fields {@link ConsultingService} guarantees).
 */
export interface DiscardedConsultingService extends ConsultingService {
  /** Unix seconds of the soft delete, set by the delete. */
  discardedAt: number;
}

/**
 * A consulting meeting (`AdminConsultingMeeting`): one time slot of a service that students enroll
 * into.
 *
 * Never null in a successful result: `id`, `title`, `state`, `startedAt`, `endedAt`,
 * `serviceId`, `hostUserId`.
 */
export interface ConsultingMeeting {
  /** Meeting identifier. */
  id: string;
  /** Title; falls back to the service name when omitted at creation, so always set. */
  title: string;
  /** Free text, when set. */
  description: string | null;
  /** One of the documented {@link MeetingState}s, or a value the spec does not list yet. */
  state: MeetingState | (string & {});
  /** Start (Unix seconds): required at creation and never cleared. */
  startedAt: number;
  /** End (Unix seconds): required at creation and never cleared. */
  endedAt: number;
  /** Id of the parent consulting service. */
  serviceId: string;
  /** Marketing profile shown on the meeting page (does not control who hosts); null when neither the meeting nor its service has one. */
  lecturerId: string | null;
  /** Who actually hosts (the school owner or a teaching assistant): defaults to the owner and cannot be unassigned, so always set. */
  hostUserId: string;
  /** Video-platform licence email; meaningful only when `hostingType` is `videoconf`. */
  hostEmail: string | null;
  /** One of the documented {@link MeetingHostingType}s, a value the spec does not list yet, or null when not set. */
  hostingType: MeetingHostingType | (string & {}) | null;
  /** External platform meeting id (set for provisioned `videoconf` meetings). */
  hostingId: string | null;
  /** Join address, when there is one. */
  joinUrl: string | null;
  /** Maximum number of attendees; 0 or null means unlimited. */
  maxAttendeeCapacity: number | null;
  /** Price, when set. */
  price: number | null;
  /** Currency of `price`, when the server sends it. */
  currency: string | null;
  /** Number of enrolled attendees, when the server sends it. */
  attendeeCount: number | null;
  /** Unix seconds of the soft delete; null while not deleted. */
  discardedAt: number | null;
  /** Creation time (Unix seconds), when the server sends it. */
  createdAt: number | null;
  /** Last update time (Unix seconds), when the server sends it. */
  updatedAt: number | null;
}

/** A default-mode rating: a score and an optional comment. */
export interface AttendeeRate {
  /** 0.5 to 10 in steps of 0.5; required in default mode, so never null when `rate` is set. */
  score: number;
  /** Optional comment. */
  comment: string | null;
}

/**
 * A student's rating in a meeting (`AdminConsultingAttendeeRating`), as `rateMeeting` returns it.
 * Custom-mode answers (`submission`) are not selected: their shape is not shown in the spec.
 *
 * Never null in a successful result: `userId` (and `rate.score` whenever `rate` is set).
 */
export interface AttendeeRating {
  /** The rated student's user id. */
  userId: string;
  /** The student's email, when the server sends it. */
  email: string | null;
  /** The student's name, when the server sends it. */
  name: string | null;
  /** The default-mode rating; null for a custom-mode (rating form) rating. */
  rate: AttendeeRate | null;
}

/**
 * A coupon grant (`AdminCouponGrant`): one member's single-use right to a restricted coupon.
 *
 * Never null in a successful result: `id`, `status`, `grantedAt`.
 */
export interface CouponGrant {
  /** Grant identifier (UUID), used by `revokeCouponGrant`. */
  id: string;
  /** One of the documented {@link CouponGrantStatus}es, or a value the spec does not list yet. */
  status: CouponGrantStatus | (string & {});
  /** Member name, when known. */
  userName: string | null;
  /** Member email, when known. */
  userEmail: string | null;
  /** Who granted it; null when granted with an API key. */
  grantedByName: string | null;
  /** When it was granted (Unix seconds). */
  grantedAt: number;
  /** When it was redeemed (Unix seconds); null until redeemed. */
  redeemedAt: number | null;
  /** When it was revoked (Unix seconds); null unless revoked. */
  revokedAt: number | null;
}

/**
 * The grant `revokeCouponGrant` returns: status `revoked`, so `revokedAt` is never null (on top of
 * the fields {@link CouponGrant} guarantees).
 */
export interface RevokedCouponGrant extends CouponGrant {
  /** When it was revoked (Unix seconds), set by the revoke. */
  revokedAt: number;
}

/**
 * A coupon (`AdminCoupon`), with the fields the spec shows but its grants (the list of every grant
 * of the coupon grows with it: ask for it with `{ includeGrants: true }`, see {@link CouponWithGrants}).
 *
 * Never null in a successful result: `id`, `name`, `code`, `couponType`, `amount`, `active`,
 * `restricted`, `oncePerUser`.
 */
export interface Coupon {
  /** Coupon identifier (UUID). */
  id: string;
  /** Internal name (required at creation). */
  name: string;
  /** The code members enter; generated (6 characters) when omitted at creation, so always set. */
  code: string;
  /** One of the documented {@link CouponType}s, or a value the spec does not list yet. */
  couponType: CouponType | (string & {});
  /** Percentage (0-100] or amount in the school currency, per `couponType` (required at creation). */
  amount: number;
  /** True means redeemable, false deactivated (defaults to true; an explicit null is ignored). */
  active: boolean;
  /** Grant-only coupon (defaults to false; cannot change after creation). */
  restricted: boolean;
  /** Whether a member may use it only once (defaults to false; an explicit null is ignored). */
  oncePerUser: boolean;
  /** Maximum number of redemptions; null means unlimited (not enforced for restricted coupons). */
  redemptionLimit: number | null;
  /** Start of validity (Unix seconds); null means no start limit. */
  startedAt: number | null;
  /** Expiry (Unix seconds); null means it never expires. */
  expiredAt: number | null;
  /** How many times it was applied, when the server sends it. */
  appliedCount: number | null;
}

/**
 * A coupon with every grant it holds: what `createCoupon` and `updateCoupon` resolve to with
 * `{ includeGrants: true }`. The list is the whole of it, in one answer: about 220 bytes a grant
 * (4.4 MB for 20,000 grants; beyond about 76,000 the answer passes `maxResponseBytes`, 16 MiB by
 * default, and the call fails with `InvalidResponseError` `too_large` after the change was applied).
 */
export interface CouponWithGrants extends Coupon {
  /** Every grant of the coupon, when the server sends them. */
  grants: CouponGrant[] | null;
}

/**
 * The enrolled student as `enrollStudent` returns it (`AdminUser`); fields beyond `id`, `name`
 * and `email` are not shown in the spec.
 */
export interface AdminUser {
  /** Member identifier (UUID). */
  id: string;
  /** Member name, when known. */
  name: string | null;
  /** Member email, when known. */
  email: string | null;
}
