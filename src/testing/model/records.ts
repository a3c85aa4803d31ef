/**
 * The records of the simulator's in-memory model of one school. They are plain data (no methods,
 * no shared references) so a whole school can be snapshotted with `structuredClone` for rollback.
 * Timestamps are Unix seconds.
 */

/** Roles a user can hold in a school. Members are the school's students. */
export type UserRole = 'owner' | 'teaching_assistant' | 'member';

/** A user of the school: the owner, a teaching assistant or a member (student). */
export interface UserRecord {
  id: string;
  name: string;
  email: string;
  roles: UserRole[];
  /** Set when the account was deleted; deleted users are "not found" everywhere. */
  deletedAt: number | null;
  createdAt: number;
  /** `admin_api` when created by `enrollStudentToConsultingMeeting` with an email. */
  createdVia: 'seed' | 'admin_api';
}

/** A lecturer: a marketing profile shown on service and meeting pages. */
export interface LecturerRecord {
  id: string;
  name: string;
}

/** A course, the parent of consulting services. */
export interface CourseRecord {
  id: string;
  name: string;
}

/** Kinds of products a coupon can be restricted to. */
export type ProductKind = 'course' | 'curriculum_plan' | 'event' | 'ticket' | 'digital_product' | 'membership_plan';

/** A product of the school's selectable catalog other than courses and membership plans. */
export interface ProductRecord {
  id: string;
  name: string;
  kind: ProductKind;
}

/** Field kinds of a feedback form; `address` exists but cannot be answered through the admin API. */
export type FormFieldType = 'text' | 'textarea' | 'number' | 'select' | 'multi_select' | 'checkbox' | 'address';

/** One field of a feedback form. */
export interface FormFieldRecord {
  id: string;
  label: string;
  type: FormFieldType;
  required: boolean;
  /** Allowed answers of `select`, `multi_select` and `checkbox` fields. */
  options: string[];
}

/** A feedback form; linked to a service it switches rating to custom mode. */
export interface FormRecord {
  id: string;
  name: string;
  fields: FormFieldRecord[];
}

/** The school's integration with the video platform. */
export interface VideoIntegrationRecord {
  active: boolean;
  /** Licence emails: the valid `hostEmail` values of `videoconf` meetings. */
  licenceEmails: string[];
}

/** A membership plan. */
export interface PlanRecord {
  id: string;
  name: string;
  /** Lifetime plans grant permanent access and have no billing periods. */
  lifetime: boolean;
  recurring: boolean;
}

/** The documented subscription states. */
export type SubscriptionState =
  | 'active'
  | 'incomplete'
  | 'incomplete_expired'
  | 'trialing'
  | 'past_due'
  | 'canceled'
  | 'expired';

/** A member's subscription to a membership plan. */
export interface SubscriptionRecord {
  id: string;
  userId: string;
  planId: string;
  state: SubscriptionState;
  isCanceling: boolean;
  isCancellable: boolean;
  currentPeriodStart: number | null;
  currentPeriodEnd: number | null;
  startAt: number | null;
  endAt: number | null;
  nextChargeDate: number | null;
}

/** A consulting service: a bookable offering attached to a course (its target). */
export interface ServiceRecord {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  published: boolean;
  publishedAt: number | null;
  /** The spec stores tags in the service's settings. */
  settings: { tags: string[] };
  backgroundColor: string | null;
  ratingFormId: string | null;
  serviceType: 'consulting';
  /** The parent course; never changes. */
  targetId: string;
  lecturerId: string | null;
  discardedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** Meeting states. */
export type MeetingState = 'available' | 'scheduled' | 'canceled';

/** `AdminMeetingHostingType`. */
export type HostingType = 'videoconf' | 'live_session' | 'custom';

/** A consulting meeting: one time slot of a service. */
export interface MeetingRecord {
  id: string;
  serviceId: string;
  title: string;
  description: string | null;
  state: MeetingState;
  startedAt: number;
  endedAt: number;
  lecturerId: string | null;
  hostUserId: string;
  hostEmail: string | null;
  hostingType: HostingType | null;
  hostingId: string | null;
  joinUrl: string | null;
  /** 0 or null means unlimited. */
  maxAttendeeCapacity: number | null;
  price: number | null;
  currency: string;
  /** Enrolled students in enrollment order. */
  attendeeIds: string[];
  discardedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** One answer of a custom-mode rating. */
export interface AnswerRecord {
  fieldId: string;
  value: string | null;
  values: string[] | null;
}

/** The rating of one student in one meeting (one per pair; a new rating replaces it). */
export interface RatingRecord {
  id: string;
  meetingId: string;
  userId: string;
  raterId: string;
  /** Default mode. */
  score: number | null;
  comment: string | null;
  /** Custom mode. */
  answers: AnswerRecord[] | null;
  createdAt: number;
  updatedAt: number;
}

/** Coupon types. */
export type CouponType = 'fixed_amount' | 'percentage';

/** A coupon (a discount); restricted coupons are grant-only. */
export interface CouponRecord {
  id: string;
  name: string;
  code: string;
  couponType: CouponType;
  amount: number;
  description: string | null;
  active: boolean;
  restricted: boolean;
  oncePerUser: boolean;
  redemptionLimit: number | null;
  startedAt: number | null;
  expiredAt: number | null;
  /** Product ids; empty means the coupon applies to everything. */
  itemIds: string[];
  appliedCount: number;
  /** Deleted coupons are "not found" and free their code. */
  deletedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** A discount code: standalone, or generated for a coupon (the id `payment.paid` carries). */
export interface DiscountCodeRecord {
  id: string;
  code: string;
  /** The coupon it was generated for; null for a standalone discount code. */
  couponId: string | null;
  deletedAt: number | null;
  createdAt: number;
}

/** Stored grant statuses; `expired` is derived from the coupon when reported. */
export type StoredGrantStatus = 'granted' | 'redeemed' | 'revoked';

/** A member's grant of a restricted coupon. */
export interface GrantRecord {
  id: string;
  couponId: string;
  userId: string;
  status: StoredGrantStatus;
  /** Null when granted with an API key. */
  grantedByName: string | null;
  grantedAt: number;
  redeemedAt: number | null;
  revokedAt: number | null;
}

/** A use of a coupon at checkout. */
export interface RedemptionRecord {
  id: string;
  couponId: string;
  userId: string;
  discountCodeId: string;
  grantId: string | null;
  at: number;
}

/** An email the service would send (the outbox). */
export interface EmailRecord {
  id: string;
  kind: 'rating_notification';
  to: string;
  userId: string;
  subject: string;
  meetingId: string;
  sentAt: number;
}

/** The `payment.paid` webhook payload produced by a simulated checkout. */
export interface PaymentPaidWebhook {
  id: string;
  type: 'payment.paid';
  createdAt: number;
  data: {
    payment: { id: string; currency: string };
    /** `id` is the discount code's id (never the coupon's); match on `code`. */
    coupon: { id: string; code: string };
    user: { id: string; email: string; name: string };
  };
}
