/**
 * The records of the simulator's in-memory model of one school. They are plain data (no methods,
 * no shared references) so a whole school can be snapshotted with `structuredClone` for rollback.
 * Timestamps are Unix seconds.
 */

/** Roles a user can hold in a school. Members are the school's students. */
export type UserRole = 'owner' | 'teaching_assistant' | 'member';

/** A user of the school: the owner, a teaching assistant or a member (student). */
export interface UserRecord {
  /** User id (UUID). */
  id: string;
  /** Display name. */
  name: string;
  /** Email, unique in the school (matched case-insensitively). */
  email: string;
  /** What the user may do in the school. */
  roles: UserRole[];
  /** Set when the account was deleted; deleted users are "not found" everywhere. */
  deletedAt: number | null;
  /** Creation time. */
  createdAt: number;
  /** `admin_api` when created by `enrollStudentToConsultingMeeting` with an email. */
  createdVia: 'seed' | 'admin_api';
}

/** A lecturer: a marketing profile shown on service and meeting pages. */
export interface LecturerRecord {
  /** Lecturer id. */
  id: string;
  /** Display name. */
  name: string;
}

/** A course, the parent of consulting services. */
export interface CourseRecord {
  /** Course id. */
  id: string;
  /** Display name. */
  name: string;
}

/** Kinds of products a coupon can be restricted to. */
export type ProductKind = 'course' | 'curriculum_plan' | 'event' | 'ticket' | 'digital_product' | 'membership_plan';

/** A product of the school's selectable catalog other than courses and membership plans. */
export interface ProductRecord {
  /** Product id. */
  id: string;
  /** Display name. */
  name: string;
  /** What kind of product it is. */
  kind: ProductKind;
}

/** Field kinds of a feedback form; `address` exists but cannot be answered through the admin API. */
export type FormFieldType = 'text' | 'textarea' | 'number' | 'select' | 'multi_select' | 'checkbox' | 'address';

/** One field of a feedback form. */
export interface FormFieldRecord {
  /** Field id (`AnswerInput.fieldId`). */
  id: string;
  /** Question shown to the grader. */
  label: string;
  /** What kind of answer the field takes. */
  type: FormFieldType;
  /** Whether a custom-mode rating must answer it (else MEETING-015). */
  required: boolean;
  /** Allowed answers of `select`, `multi_select` and `checkbox` fields. */
  options: string[];
}

/** A feedback form; linked to a service it switches rating to custom mode. */
export interface FormRecord {
  /** Form id (`ratingFormId`). */
  id: string;
  /** Display name. */
  name: string;
  /** The questions, in order. */
  fields: FormFieldRecord[];
}

/** The school's integration with the video platform. */
export interface VideoIntegrationRecord {
  /** Whether the integration is active (`videoconf` hosting needs it, else MEETING-009). */
  active: boolean;
  /** Licence emails: the valid `hostEmail` values of `videoconf` meetings. */
  licenceEmails: string[];
}

/** A membership plan. */
export interface PlanRecord {
  /** Plan id. */
  id: string;
  /** Display name. */
  name: string;
  /** Lifetime plans grant permanent access and have no billing periods. */
  lifetime: boolean;
  /** Whether it charges periodically (non-recurring subscriptions have no `nextChargeDate`). */
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
  /** Subscription id. */
  id: string;
  /** The member who owns it. */
  userId: string;
  /** Its membership plan. */
  planId: string;
  /** One of the documented states. */
  state: SubscriptionState;
  /** Cancellation requested for a future date (every period update is refused). */
  isCanceling: boolean;
  /** Whether it can be cancelled. */
  isCancellable: boolean;
  /** Start of the current billing period; null without periods (lifetime). */
  currentPeriodStart: number | null;
  /** End of the current billing period; null without periods (lifetime). */
  currentPeriodEnd: number | null;
  /** When it started. */
  startAt: number | null;
  /** When it ends (non-recurring subscriptions). */
  endAt: number | null;
  /** Next charge; null for non-recurring subscriptions. */
  nextChargeDate: number | null;
}

/** A consulting service: a bookable offering attached to a course (its target). */
export interface ServiceRecord {
  /** Service id. */
  id: string;
  /** Display name (never blank). */
  name: string;
  /** URL slug, unique in the school. */
  slug: string;
  /** Free text. */
  description: string | null;
  /** Whether it is published. */
  published: boolean;
  /** First publish time; kept when unpublished. */
  publishedAt: number | null;
  /** The spec stores tags in the service's settings. */
  settings: {
    /** Tags, in order. */
    tags: string[];
  };
  /** Hex color. */
  backgroundColor: string | null;
  /** Linked feedback form (custom-mode rating) or null (default mode). */
  ratingFormId: string | null;
  /** Always `consulting`. */
  serviceType: 'consulting';
  /** The parent course; never changes. */
  targetId: string;
  /** Service-level lecturer, inherited by meetings created without one. */
  lecturerId: string | null;
  /** Soft-delete time. */
  discardedAt: number | null;
  /** Creation time. */
  createdAt: number;
  /** Last update time. */
  updatedAt: number;
}

/** Meeting states. */
export type MeetingState = 'available' | 'scheduled' | 'canceled';

/** `AdminMeetingHostingType`. */
export type HostingType = 'videoconf' | 'live_session' | 'custom';

/** A consulting meeting: one time slot of a service. */
export interface MeetingRecord {
  /** Meeting id. */
  id: string;
  /** Parent service. */
  serviceId: string;
  /** Title (the service name when none was given). */
  title: string;
  /** Free text. */
  description: string | null;
  /** `available`, `scheduled` or `canceled`. */
  state: MeetingState;
  /** Start. */
  startedAt: number;
  /** End. */
  endedAt: number;
  /** Marketing profile shown on the meeting page. */
  lecturerId: string | null;
  /** Who hosts: the owner or a teaching assistant. */
  hostUserId: string;
  /** Video-platform licence email (`videoconf` only). */
  hostEmail: string | null;
  /** How it is hosted, when set. */
  hostingType: HostingType | null;
  /** External platform meeting id (provisioned `videoconf` meetings). */
  hostingId: string | null;
  /** Join address. */
  joinUrl: string | null;
  /** 0 or null means unlimited. */
  maxAttendeeCapacity: number | null;
  /** Price, when set. */
  price: number | null;
  /** Currency of `price` (the school currency). */
  currency: string;
  /** Enrolled students in enrollment order. */
  attendeeIds: string[];
  /** Soft-delete time. */
  discardedAt: number | null;
  /** Creation time. */
  createdAt: number;
  /** Last update time. */
  updatedAt: number;
}

/** One answer of a custom-mode rating. */
export interface AnswerRecord {
  /** The answered form field. */
  fieldId: string;
  /** A single answer. */
  value: string | null;
  /** Several answers (multiple-choice fields). */
  values: string[] | null;
}

/** The rating of one student in one meeting (one per pair; a new rating replaces it). */
export interface RatingRecord {
  /** Rating id. */
  id: string;
  /** The meeting. */
  meetingId: string;
  /** The rated student. */
  userId: string;
  /** The grader (owner or teaching assistant). */
  raterId: string;
  /** Default mode. */
  score: number | null;
  /** Default mode: optional comment. */
  comment: string | null;
  /** Custom mode. */
  answers: AnswerRecord[] | null;
  /** First rating time. */
  createdAt: number;
  /** Last replacement time. */
  updatedAt: number;
}

/** Coupon types. */
export type CouponType = 'fixed_amount' | 'percentage';

/** A coupon (a discount); restricted coupons are grant-only. */
export interface CouponRecord {
  /** Coupon id (UUID). */
  id: string;
  /** Internal name. */
  name: string;
  /** The code members enter (whitespace stripped, unique among live coupons and discount codes). */
  code: string;
  /** `fixed_amount` or `percentage`. */
  couponType: CouponType;
  /** Percentage or amount in the school currency. */
  amount: number;
  /** Internal note. */
  description: string | null;
  /** False deactivates it (grants stay `granted` but cannot be redeemed). */
  active: boolean;
  /** Grant-only; fixed at creation. */
  restricted: boolean;
  /** At most one use per member. */
  oncePerUser: boolean;
  /** Maximum uses; null means unlimited (not enforced for restricted coupons). */
  redemptionLimit: number | null;
  /** Start of validity; null means no start limit. */
  startedAt: number | null;
  /** Expiry; null means never. */
  expiredAt: number | null;
  /** Product ids; empty means the coupon applies to everything. */
  itemIds: string[];
  /** How many times it was redeemed. */
  appliedCount: number;
  /** Deleted coupons are "not found" and free their code. */
  deletedAt: number | null;
  /** Creation time. */
  createdAt: number;
  /** Last update time. */
  updatedAt: number;
}

/** A discount code: standalone, or generated for a coupon (the id `payment.paid` carries). */
export interface DiscountCodeRecord {
  /** Discount code id (what `payment.paid` carries as `coupon.id`). */
  id: string;
  /** The code. */
  code: string;
  /** The coupon it was generated for; null for a standalone discount code. */
  couponId: string | null;
  /** Deletion time (frees the code). */
  deletedAt: number | null;
  /** Creation time. */
  createdAt: number;
}

/** Stored grant statuses; `expired` is derived from the coupon when reported. */
export type StoredGrantStatus = 'granted' | 'redeemed' | 'revoked';

/** A member's grant of a restricted coupon. */
export interface GrantRecord {
  /** Grant id (UUID). */
  id: string;
  /** The restricted coupon. */
  couponId: string;
  /** The member holding it. */
  userId: string;
  /** Stored status (`expired` is derived when reported). */
  status: StoredGrantStatus;
  /** Null when granted with an API key. */
  grantedByName: string | null;
  /** Grant time. */
  grantedAt: number;
  /** Redemption time; null until redeemed. */
  redeemedAt: number | null;
  /** Revocation time; null unless revoked. */
  revokedAt: number | null;
}

/** A use of a coupon at checkout. */
export interface RedemptionRecord {
  /** Redemption id. */
  id: string;
  /** The coupon used. */
  couponId: string;
  /** The member who used it. */
  userId: string;
  /** The discount code the order carried. */
  discountCodeId: string;
  /** The grant consumed, for a restricted coupon. */
  grantId: string | null;
  /** Checkout time. */
  at: number;
}

/** An email the service would send (the outbox). */
export interface EmailRecord {
  /** Email id. */
  id: string;
  /** Why it was sent (the only kind the spec names: the rating notification). */
  kind: 'rating_notification';
  /** Recipient address. */
  to: string;
  /** Recipient member. */
  userId: string;
  /** Subject line. */
  subject: string;
  /** The rated meeting. */
  meetingId: string;
  /** Send time. */
  sentAt: number;
}

/** The `payment.paid` webhook payload produced by a simulated checkout. */
export interface PaymentPaidWebhook {
  /** Event id. */
  id: string;
  /** Event kind. */
  type: 'payment.paid';
  /** Event time. */
  createdAt: number;
  /** The order: payment, coupon (discount code) and member. */
  data: {
    /** The payment. */
    payment: {
      /** Payment id. */
      id: string;
      /** Currency of the order. */
      currency: string;
    };
    /** `id` is the discount code's id (never the coupon's); match on `code`. */
    coupon: {
      /** The discount code's id. */
      id: string;
      /** The code the order used. */
      code: string;
    };
    /** The member who paid. */
    user: {
      /** User id. */
      id: string;
      /** Email. */
      email: string;
      /** Display name. */
      name: string;
    };
  };
}
