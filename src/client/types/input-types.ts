import type { CouponType, MeetingHostingType } from './enumerations.js';

/*
 * What the typed methods accept, written from the spec's input tables. Each interface is checked
 * against the generated GraphQL input type it is sent as (test/types), so the documents accept
 * everything these allow.
 */

/** A Unix timestamp in seconds, or a `Date` (converted to whole seconds before sending). */
export type Timestamp = number | Date;

/** Input of `createConsultingService` (`AdminConsultingServiceInput`). */
export interface ConsultingServiceInput {
  /** Display name. */
  name: string;
  /** Parent course; must belong to the school, else CONSULTING-002. It can never change afterwards. */
  courseId: string;
  /** URL slug matching `^[a-z0-9-]+$` (else CONSULTING-003, checked before sending); derived from the name when blank. */
  slug?: string | null | undefined;
  /** Free text. */
  description?: string | null | undefined;
  /** Service-level lecturer; must belong to the school, else CONSULTING-005. */
  lecturerId?: string | null | undefined;
  /** True publishes the service and stamps `publishedAt` to now. */
  published?: boolean | null | undefined;
  /** Tags; replace the whole list. */
  tags?: string[] | null | undefined;
  /** Linked feedback form; must belong to the school, else CONSULTING-006. */
  ratingFormId?: string | null | undefined;
  /** Hex color. */
  backgroundColor?: string | null | undefined;
}

/**
 * Input of `updateConsultingService` (`AdminConsultingServiceUpdateInput`): only provided keys are
 * applied; `courseId` cannot change (no reparenting).
 */
export interface ConsultingServiceUpdateInput {
  /** New display name. */
  name?: string | null | undefined;
  /** New URL slug matching `^[a-z0-9-]+$` (else CONSULTING-003). */
  slug?: string | null | undefined;
  /** New description. */
  description?: string | null | undefined;
  /** New service-level lecturer (existing meetings keep theirs); `null` clears it. */
  lecturerId?: string | null | undefined;
  /** `true` publishes (stamps `publishedAt` on the first publish only); `false` unpublishes and keeps `publishedAt`. */
  published?: boolean | null | undefined;
  /** Replaces the entire tag list. */
  tags?: string[] | null | undefined;
  /** New linked feedback form; `null` clears it. */
  ratingFormId?: string | null | undefined;
  /** New hex color; `null` clears it. */
  backgroundColor?: string | null | undefined;
}

/** One row of `bulkCreateMeetings` (`AdminConsultingMeetingBulkInput`). */
export interface MeetingRowInput {
  /** Start, as Unix seconds or a `Date`. */
  startedAt: Timestamp;
  /** End, as Unix seconds or a `Date`. */
  endedAt: Timestamp;
  /** Marketing profile shown on the meeting page; inherits the service's lecturer when null. */
  lecturerId?: string | null | undefined;
  /** Who hosts: the school owner (the default) or a teaching assistant, else MEETING-012 on that row. */
  hostUserId?: string | null | undefined;
  /** How the meeting is hosted; `custom` needs `joinUrl` (MEETING-008), `videoconf` rows cannot be atomic (MEETING-010). */
  hostingType?: MeetingHostingType | null | undefined;
  /** External platform meeting id. */
  hostingId?: string | null | undefined;
  /** Video-platform licence email (`videoconf` only); the only licence when omitted and there is exactly one, else MEETING-011. */
  hostEmail?: string | null | undefined;
  /** Join address (required for `custom` hosting). */
  joinUrl?: string | null | undefined;
  /** Maximum number of attendees; 0 or null means unlimited. */
  maxAttendeeCapacity?: number | null | undefined;
  /** Price. */
  price?: number | null | undefined;
  /** Title; the service name when omitted. */
  title?: string | null | undefined;
  /** Free text. */
  description?: string | null | undefined;
}

/**
 * Input of `updateMeeting` (`AdminConsultingMeetingUpdateInput`): only provided fields change and
 * an explicit `null` means no change (nothing can be cleared).
 */
export interface MeetingUpdateInput {
  /** New start (Unix seconds or a `Date`); refused with MEETING-003 once students are enrolled. */
  startedAt?: Timestamp | null | undefined;
  /** New end (Unix seconds or a `Date`); refused with MEETING-003 once students are enrolled. */
  endedAt?: Timestamp | null | undefined;
  /** New marketing profile (does not change who hosts). */
  lecturerId?: string | null | undefined;
  /** New host: the school owner or a teaching assistant, else MEETING-012. */
  hostUserId?: string | null | undefined;
  /** New hosting kind; the resulting meeting must satisfy MEETING-008 / MEETING-009. */
  hostingType?: MeetingHostingType | null | undefined;
  /** New external platform meeting id. */
  hostingId?: string | null | undefined;
  /** New video-platform licence email (MEETING-011 when not among the school's licences). */
  hostEmail?: string | null | undefined;
  /** New join address. */
  joinUrl?: string | null | undefined;
  /** New maximum number of attendees; 0 means unlimited. */
  maxAttendeeCapacity?: number | null | undefined;
  /** New price. */
  price?: number | null | undefined;
  /** New title. */
  title?: string | null | undefined;
  /** New description. */
  description?: string | null | undefined;
}

/** Input of `createCoupon` (`AdminCouponInput`). */
export interface CouponInput {
  /** Internal name. */
  name: string;
  /** `fixed_amount` or `percentage` (anything else is refused with COUPON-002 before sending). */
  couponType: CouponType;
  /** Percentage: greater than 0 and at most 100; fixed amount: in the school currency. */
  amount: number;
  /** The code members enter (all whitespace stripped; unique in the school); a readable 6-character code is generated when omitted. */
  code?: string | null | undefined;
  /** Internal note. */
  description?: string | null | undefined;
  /** Redeemable right away. @default true */
  active?: boolean | null | undefined;
  /** Start of validity (Unix seconds or a `Date`); unlimited when omitted. */
  startedAt?: Timestamp | null | undefined;
  /** Expiry (Unix seconds or a `Date`), after `startedAt`; never expires when omitted. */
  expiredAt?: Timestamp | null | undefined;
  /** Maximum number of redemptions; unlimited when omitted; ignored for restricted coupons. */
  redemptionLimit?: number | null | undefined;
  /** At most one use per member. @default false */
  oncePerUser?: boolean | null | undefined;
  /** Grant-only (each grant is one single use); cannot change after creation. @default false */
  restricted?: boolean | null | undefined;
  /** Product ids the coupon applies to; everything when omitted or empty; ids outside the school's catalog are ignored. */
  itemIds?: string[] | null | undefined;
}

/**
 * Input of `updateCoupon` (`AdminCouponUpdateInput`): omitted fields keep their values; `code`
 * and `restricted` cannot change.
 */
export interface CouponUpdateInput {
  /** New internal name. */
  name?: string | null | undefined;
  /** New type (send a matching `amount` with it); anything else than the documented values is refused with COUPON-002. */
  couponType?: CouponType | null | undefined;
  /** New amount, within the same bounds as on create. */
  amount?: number | null | undefined;
  /** New internal note; `null` clears it. */
  description?: string | null | undefined;
  /** `false` deactivates; an explicit `null` is ignored. */
  active?: boolean | null | undefined;
  /** New start of validity (Unix seconds or a `Date`); `null` clears it. */
  startedAt?: Timestamp | null | undefined;
  /** New expiry (Unix seconds or a `Date`), after `startedAt`; `null` clears it. */
  expiredAt?: Timestamp | null | undefined;
  /** New redemption limit; `null` makes it unlimited. */
  redemptionLimit?: number | null | undefined;
  /** New once-per-member rule; an explicit `null` is ignored. */
  oncePerUser?: boolean | null | undefined;
  /** Replaces the product selection; an empty array means everything; `null` leaves it unchanged. */
  itemIds?: string[] | null | undefined;
}

/** One answer of a custom-mode rating (`AnswerInput`): `value` or `values`, not both (else MEETING-015). */
export interface AnswerInput {
  /** Id of the rating form's field. */
  fieldId: string;
  /** A single answer. */
  value?: string | null | undefined;
  /** Several answers (multiple-choice fields). */
  values?: string[] | null | undefined;
}
