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
  id?: string;
  name?: string;
  email?: string;
}

/** A member; `deleted: true` seeds a deleted account. */
export interface MemberSeed extends PersonSeed {
  deleted?: boolean;
}

/** A school. Defaults: name "School N", currency USD, time zone UTC, an owner. */
export interface SchoolSeed {
  id?: string;
  name?: string;
  currency?: string;
  timezone?: string;
  owner?: PersonSeed;
}

/** A named record (lecturer, course). */
export interface NamedSeed {
  id?: string;
  name?: string;
}

/** A catalog product other than courses and plans. */
export interface ProductSeed extends NamedSeed {
  kind: ProductKind;
}

/** A form field. Defaults: type `text`, not required, no options. */
export interface FormFieldSeed {
  id?: string;
  label?: string;
  type?: FormFieldType;
  required?: boolean;
  options?: string[];
}

/** A feedback form. */
export interface FormSeed extends NamedSeed {
  fields: FormFieldSeed[];
}

/** A membership plan. Defaults: recurring, not lifetime. */
export interface PlanSeed extends NamedSeed {
  lifetime?: boolean;
  recurring?: boolean;
}

/**
 * A subscription. Defaults: `active`, not canceling, cancellable, a 30-day period around now
 * (none for lifetime plans), next charge at the period end for recurring plans.
 */
export interface SubscriptionSeed {
  id?: string;
  userId: string;
  planId: string;
  state?: SubscriptionState;
  isCanceling?: boolean;
  isCancellable?: boolean;
  currentPeriodStart?: number | null;
  currentPeriodEnd?: number | null;
  startAt?: number | null;
  endAt?: number | null;
  nextChargeDate?: number | null;
}

/** A consulting service. Defaults: unpublished, slug from the name, no form (default rating mode). */
export interface ServiceSeed {
  id?: string;
  name?: string;
  courseId: string;
  slug?: string;
  description?: string;
  published?: boolean;
  tags?: string[];
  backgroundColor?: string;
  ratingFormId?: string;
  lecturerId?: string;
  discarded?: boolean;
}

/**
 * A meeting. Defaults: title from the service, host the owner, service lecturer, unlimited
 * capacity, state `available` (`scheduled` with attendees, `canceled` with `canceled: true`).
 */
export interface MeetingSeed {
  id?: string;
  serviceId: string;
  startedAt: number;
  endedAt: number;
  title?: string;
  description?: string;
  lecturerId?: string;
  hostUserId?: string;
  hostingType?: HostingType;
  hostEmail?: string;
  joinUrl?: string;
  maxAttendeeCapacity?: number;
  price?: number;
  attendeeIds?: string[];
  canceled?: boolean;
}

/** A rating of an enrolled student. Default grader: the meeting host. */
export interface RatingSeed {
  meetingId: string;
  userId: string;
  raterId?: string;
  score?: number;
  comment?: string;
}

/** A coupon. Defaults: percentage 10, active, not restricted, generated code, no dates. */
export interface CouponSeed {
  id?: string;
  name?: string;
  code?: string;
  couponType?: CouponType;
  amount?: number;
  active?: boolean;
  restricted?: boolean;
  oncePerUser?: boolean;
  redemptionLimit?: number;
  startedAt?: number;
  expiredAt?: number;
  itemIds?: string[];
  deleted?: boolean;
}

/** A standalone discount code. */
export interface DiscountCodeSeed {
  id?: string;
  code: string;
  deleted?: boolean;
}

/** A grant. Default status `granted`. */
export interface GrantSeed {
  id?: string;
  couponId: string;
  userId: string;
  status?: StoredGrantStatus;
}

/** An API key. Defaults: a generated `sk_live_` key with every scope the spec names. */
export interface ApiKeySeed {
  key?: string;
  scopes?: string[];
}
