import type {
  CouponType,
  FormFieldType,
  HostingType,
  ProductKind,
  StoredGrantStatus,
  SubscriptionState,
} from '../model/records.js';

/*
 * Inputs of the seeding API. Every `id` is optional (a deterministic UUID is generated); give one
 * when a test or demo needs a constant id. Timestamps are Unix seconds.
 */

/** A person: the owner, a teaching assistant or a member. */
export interface PersonSeed {
  /** Fixed id; a deterministic UUID is generated when omitted. */
  id?: string;
  /** Display name (generated when omitted). */
  name?: string;
  /** Email (generated when omitted). */
  email?: string;
}

/** A member; `deleted: true` seeds a deleted account. */
export interface MemberSeed extends PersonSeed {
  /** Seeds a deleted account ("not found" everywhere). */
  deleted?: boolean;
}

/** A school. Defaults: name "School N", currency USD, time zone UTC, an owner. */
export interface SchoolSeed {
  /** Fixed id; a deterministic UUID is generated when omitted. */
  id?: string;
  /** Display name. @default "School N" */
  name?: string;
  /** Currency of prices. @default "USD" */
  currency?: string;
  /** IANA zone: every service's `effectiveTimezone`. @default "UTC" */
  timezone?: string;
  /** The school owner (generated when omitted). */
  owner?: PersonSeed;
}

/** A named record (lecturer, course). */
export interface NamedSeed {
  /** Fixed id; a deterministic UUID is generated when omitted. */
  id?: string;
  /** Display name (generated when omitted). */
  name?: string;
}

/** A catalog product other than courses and plans. */
export interface ProductSeed extends NamedSeed {
  /** What kind of product it is. */
  kind: ProductKind;
}

/** A form field. Defaults: type `text`, not required, no options. */
export interface FormFieldSeed {
  /** Fixed id; a deterministic UUID is generated when omitted. */
  id?: string;
  /** Question shown to the grader. */
  label?: string;
  /** What kind of answer it takes. @default "text" */
  type?: FormFieldType;
  /** Whether a custom-mode rating must answer it. @default false */
  required?: boolean;
  /** Allowed answers of choice fields. @default [] */
  options?: string[];
}

/** A feedback form. */
export interface FormSeed extends NamedSeed {
  /** The questions, in order. */
  fields: FormFieldSeed[];
}

/** A membership plan. Defaults: recurring, not lifetime. */
export interface PlanSeed extends NamedSeed {
  /** Permanent access, no billing periods. @default false */
  lifetime?: boolean;
  /** Charges periodically. @default true */
  recurring?: boolean;
}

/**
 * A subscription. Defaults: `active`, not canceling, cancellable, a 30-day period around now
 * (none for lifetime plans), next charge at the period end for recurring plans.
 */
export interface SubscriptionSeed {
  /** Fixed id; a deterministic UUID is generated when omitted. */
  id?: string;
  /** The member who owns it. */
  userId: string;
  /** Its membership plan. */
  planId: string;
  /** Subscription state. @default "active" */
  state?: SubscriptionState;
  /** Cancellation requested for a future date. @default false */
  isCanceling?: boolean;
  /** Whether it can be cancelled. @default true */
  isCancellable?: boolean;
  /** Start of the current period (a 30-day period around now by default; none for lifetime plans). */
  currentPeriodStart?: number | null;
  /** End of the current period (see `currentPeriodStart`). */
  currentPeriodEnd?: number | null;
  /** When it started. */
  startAt?: number | null;
  /** When it ends (non-recurring subscriptions). */
  endAt?: number | null;
  /** Next charge (the period end for recurring plans by default). */
  nextChargeDate?: number | null;
}

/** A consulting service. Defaults: unpublished, slug from the name, no form (default rating mode). */
export interface ServiceSeed {
  /** Fixed id; a deterministic UUID is generated when omitted. */
  id?: string;
  /** Display name (generated when omitted). */
  name?: string;
  /** Parent course (must exist in the school). */
  courseId: string;
  /** URL slug (derived from the name when omitted). */
  slug?: string;
  /** Free text. */
  description?: string;
  /** Whether it is published. @default false */
  published?: boolean;
  /** Tags, in order. */
  tags?: string[];
  /** Hex color. */
  backgroundColor?: string;
  /** Linked feedback form (custom-mode rating); default rating mode when omitted. */
  ratingFormId?: string;
  /** Service-level lecturer. */
  lecturerId?: string;
  /** Seeds a soft-deleted service. */
  discarded?: boolean;
}

/**
 * A meeting. Defaults: title from the service, host the owner, service lecturer, unlimited
 * capacity, state `available` (`scheduled` with attendees, `canceled` with `canceled: true`).
 */
export interface MeetingSeed {
  /** Fixed id; a deterministic UUID is generated when omitted. */
  id?: string;
  /** Parent service. */
  serviceId: string;
  /** Start. */
  startedAt: number;
  /** End. */
  endedAt: number;
  /** Title (the service name when omitted). */
  title?: string;
  /** Free text. */
  description?: string;
  /** Marketing profile (the service lecturer when omitted). */
  lecturerId?: string;
  /** Host: the owner (default) or a teaching assistant. */
  hostUserId?: string;
  /** How it is hosted. */
  hostingType?: HostingType;
  /** Video-platform licence email (`videoconf`). */
  hostEmail?: string;
  /** Join address. */
  joinUrl?: string;
  /** Maximum attendees; unlimited when omitted. */
  maxAttendeeCapacity?: number;
  /** Price. */
  price?: number;
  /** Enrolled students (makes it `scheduled`). */
  attendeeIds?: string[];
  /** Seeds a canceled meeting. */
  canceled?: boolean;
}

/** A rating of an enrolled student. Default grader: the meeting host. */
export interface RatingSeed {
  /** The meeting (the student must be enrolled). */
  meetingId: string;
  /** The rated student. */
  userId: string;
  /** The grader (the meeting host when omitted). */
  raterId?: string;
  /** Default-mode score (0.5 to 10). */
  score?: number;
  /** Default-mode comment. */
  comment?: string;
}

/** A coupon. Defaults: percentage 10, active, not restricted, generated code, no dates. */
export interface CouponSeed {
  /** Fixed id; a deterministic UUID is generated when omitted. */
  id?: string;
  /** Internal name (generated when omitted). */
  name?: string;
  /** The code (a readable 6-character code is generated when omitted). */
  code?: string;
  /** `fixed_amount` or `percentage`. @default "percentage" */
  couponType?: CouponType;
  /** Percentage or amount. @default 10 */
  amount?: number;
  /** Redeemable. @default true */
  active?: boolean;
  /** Grant-only. @default false */
  restricted?: boolean;
  /** At most one use per member. @default false */
  oncePerUser?: boolean;
  /** Maximum uses; unlimited when omitted. */
  redemptionLimit?: number;
  /** Start of validity; none when omitted. */
  startedAt?: number;
  /** Expiry; never when omitted. */
  expiredAt?: number;
  /** Product ids it applies to; everything when omitted. */
  itemIds?: string[];
  /** Seeds a deleted coupon (its code is free again). */
  deleted?: boolean;
}

/** A standalone discount code. */
export interface DiscountCodeSeed {
  /** Fixed id; a deterministic UUID is generated when omitted. */
  id?: string;
  /** The code. */
  code: string;
  /** Seeds a deleted discount code. */
  deleted?: boolean;
}

/** A grant. Default status `granted`. */
export interface GrantSeed {
  /** Fixed id; a deterministic UUID is generated when omitted. */
  id?: string;
  /** The restricted coupon. */
  couponId: string;
  /** The member. */
  userId: string;
  /** Stored status. @default "granted" */
  status?: StoredGrantStatus;
}

/** An API key. Defaults: a generated `sk_live_` key with every scope the spec names. */
export interface ApiKeySeed {
  /** The key (a generated `sk_live_` key when omitted). */
  key?: string;
  /** Its scopes (every scope the spec names when omitted). */
  scopes?: string[];
}
