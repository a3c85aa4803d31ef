import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import type { DocumentNode } from 'graphql';
import type {
  AdminConsultingMeetingBulkInput,
  AdminConsultingMeetingUpdateInput,
  AdminConsultingServiceInput,
  AdminConsultingServiceUpdateInput,
  AdminCouponInput,
  AdminCouponUpdateInput,
  AttendeeRatingFieldsFragment,
  ConsultingMeetingFieldsFragment,
  ConsultingServiceFieldsFragment,
  CouponFieldsFragment,
  CouponGrantFieldsFragment,
  SubscriptionFieldsFragment,
} from '../generated/graphql.js';

/** A Unix timestamp in seconds, or a `Date` (converted to whole seconds before sending). */
export type Timestamp = number | Date;

/** Replaces the timestamp fields `K` of an input type by {@link Timestamp}, keeping optionality. */
export type WithTimestampInputs<T, K extends keyof T> = Omit<T, K> & {
  [P in K]: undefined extends T[P] ? Timestamp | Exclude<T[P], number | string> : Timestamp;
};

/** Replaces the BigInt fields `K` of a result type (number or digit string on the wire) by numbers. */
export type WithNumericFields<T, K extends keyof T> = Omit<T, K> & {
  [P in K]: null extends T[P] ? number | null : number;
};

/** Meeting hosting kinds (`AdminMeetingHostingType`). */
export type MeetingHostingType = 'videoconf' | 'live_session' | 'custom';

/** A subscription, as returned by `updateSubscriptionPeriod` (timestamps are Unix seconds). */
export type Subscription = SubscriptionFieldsFragment;

/** A consulting service (`AdminConsultingService`). */
export type ConsultingService = ConsultingServiceFieldsFragment;

/** A consulting meeting, one time slot of a service (`AdminConsultingMeeting`). */
export type ConsultingMeeting = ConsultingMeetingFieldsFragment;

/** A student's rating of a meeting (`AdminConsultingAttendeeRating`). */
export type AttendeeRating = AttendeeRatingFieldsFragment;

/** A coupon grant (`AdminCouponGrant`). */
export type CouponGrant = CouponGrantFieldsFragment;

/** A coupon (`AdminCoupon`); `startedAt`/`expiredAt` are Unix seconds. */
export type Coupon = WithNumericFields<CouponFieldsFragment, 'startedAt' | 'expiredAt'>;

/** An enrolled student as returned by `enrollStudent` (`AdminUser`). */
export interface AdminUser {
  id: string;
  name: string | null;
  email: string | null;
}

/** Input of `createConsultingService`. */
export type ConsultingServiceInput = AdminConsultingServiceInput;

/** Input of `updateConsultingService`: only provided keys are applied; `null` clears `lecturerId`, `ratingFormId`, `backgroundColor`. */
export type ConsultingServiceUpdateInput = AdminConsultingServiceUpdateInput;

/** One row of `bulkCreateMeetings`; `startedAt`/`endedAt` take Unix seconds or a `Date`. */
export type MeetingRowInput = WithTimestampInputs<AdminConsultingMeetingBulkInput, 'startedAt' | 'endedAt'>;

/** Input of `updateMeeting`: only provided fields change; `null` means no change. */
export type MeetingUpdateInput = WithTimestampInputs<AdminConsultingMeetingUpdateInput, 'startedAt' | 'endedAt'>;

/** Input of `createCoupon`; `startedAt`/`expiredAt` take Unix seconds or a `Date`. */
export type CouponInput = WithTimestampInputs<AdminCouponInput, 'startedAt' | 'expiredAt'>;

/** Input of `updateCoupon`: omitted fields keep their values. */
export type CouponUpdateInput = WithTimestampInputs<AdminCouponUpdateInput, 'startedAt' | 'expiredAt'>;

/** One answer of a custom-mode rating: `fieldId` and `value` or `values`. */
export type { AnswerInput } from '../generated/graphql.js';
import type { AnswerInput } from '../generated/graphql.js';

/** Identifies a member by id. */
export interface ByUserId {
  userId: string;
  email?: never;
}

/** Identifies a member by email (matched case-insensitively within the school). */
export interface ByEmail {
  email: string;
  userId?: never;
}

/** Exactly one of `userId` or `email`. */
export type MemberRef = ByUserId | ByEmail;

/** Who to enroll: an existing student by id, or by email (a student is created when none matches; `name` is then required). */
export type EnrollTarget = ByUserId | (ByEmail & { name?: string });

/** The rating of `rateMeeting`: `score` (0.5 to 10 in 0.5 steps) and `comment` in default mode, `answers` in custom mode. */
export interface RatingInput {
  score?: number;
  comment?: string;
  /** Custom mode: one entry per answered field; a repeated call replaces the whole set. */
  answers?: AnswerInput[];
  /** The grader (owner or TA); the meeting's host when omitted. */
  raterId?: string;
}

/** What `rescheduleStudent` moves. */
export interface RescheduleInput {
  userId: string;
  fromMeetingId: string;
  toMeetingId: string;
}

/** A parsed error string of one bulk row. */
export interface RowError {
  /** The server's text, as sent. */
  message: string;
  /** The error code found in the text (e.g. `'MEETING-012'`), when there is one. */
  code?: string;
  /** The values of a `valid_options=` suffix, when there is one. */
  validOptions?: string[];
  /** True when the server truncated the `valid_options=` list (it is a hint, not the full pool). */
  validOptionsTruncated: boolean;
}

/** One row of a {@link BulkResult}: `results[i]` belongs to input `i`. */
export interface BulkRow {
  meeting: ConsultingMeeting | null;
  errors: RowError[] | null;
}

/** The result of `bulkCreateMeetings` and `bulkCancelMeetings`. */
export interface BulkResult {
  /** True iff every row produced a meeting. */
  allSucceeded: boolean;
  /** Errors of the whole call (not of a row). */
  errors: string[];
  /** Same length and order as the input rows. */
  results: BulkRow[];
}

/** The result of `enrollStudent`. */
export interface EnrollResult {
  meeting: ConsultingMeeting;
  user: AdminUser | null;
}

/** The result of `rescheduleStudent`. */
export interface RescheduleResult {
  fromMeeting: ConsultingMeeting | null;
  toMeeting: ConsultingMeeting;
}

/** The result of `grantCoupon`. */
export interface GrantResult {
  grant: CouponGrant;
  /** False when the member already held an active grant (the existing grant is returned). */
  created: boolean;
}

/** Per-call options, the optional last argument of every method. */
export interface CallOptions {
  /** Aborting cancels the wait for a rate-limit slot, a retry delay and the request itself. */
  signal?: AbortSignal;
  /**
   * The lane the call waits in for its rate-limit permit: an `'interactive'` call goes before every
   * queued `'background'` call of the same key (in this client, other clients of the process and,
   * with a shared store, other processes).
   * @default 'interactive' for single calls and `request()`; `'background'` for
   * `bulkCreateMeetings`, `bulkCancelMeetings` and the grants of `grantCouponToMany`
   */
  priority?: Priority;
}

export type { Priority } from '../rate-limit/priority.js';
import type { Priority } from '../rate-limit/priority.js';

/** Options of the bulk methods. */
export interface BulkOptions extends CallOptions {
  /**
   * Roll back every row when any fails. Cannot be combined with videoconf rows (MEETING-010) or
   * with more rows than `bulkChunkSize` (one atomic batch cannot be split).
   * @default false
   */
  atomic?: boolean;
}

/** Options of `AdminClient.request`. */
export interface RequestOptions extends CallOptions {
  /**
   * Treat a mutation document as safe to repeat after a failure that may have reached the server
   * (queries always are).
   * @default false
   */
  idempotent?: boolean;
}

/** A document for `AdminClient.request`: text, a typed string document or a parsed `DocumentNode`. */
export type AnyDocument<TResult, TVariables> = string | DocumentTypeDecoration<TResult, TVariables> | DocumentNode;
