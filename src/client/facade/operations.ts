import {
  BulkCancelConsultingMeetingsDocument,
  BulkCreateConsultingMeetingsDocument,
  CancelConsultingMeetingDocument,
  CreateConsultingServiceDocument,
  CreateCouponDocument,
  CreateCouponGrantDocument,
  CreateCouponWithGrantsDocument,
  DeleteConsultingServiceDocument,
  EnrollStudentToConsultingMeetingDocument,
  RateConsultingMeetingDocument,
  RemoveStudentFromConsultingMeetingDocument,
  RescheduleStudentConsultingMeetingDocument,
  RevokeCouponGrantDocument,
  UpdateConsultingMeetingDocument,
  UpdateConsultingServiceDocument,
  UpdateCouponDocument,
  UpdateCouponWithGrantsDocument,
  UpdateSubscriptionDocument,
  type TypedDocumentString,
} from '../../generated/graphql.js';
import type { ErrorContext } from '../../response/error-context.js';
import { toBulkResult } from './bulk-result.js';
import { GUARANTEED_FIELDS, requireGuaranteed, type ResultShape, type Unchecked } from '../types/guaranteed-fields.js';
import type { Coupon, CouponWithGrants } from '../types/result-types.js';
import { requireMain } from '../pipeline/unwrap-payload.js';

/**
 * Whether an operation may be sent again after a failure that may have reached the server.
 * `idempotent`: the spec calls it idempotent, convergent or an upsert, or it sets absolute values;
 * `unsafe`: repeating it could duplicate work or change its meaning.
 */
export type RetrySafety = 'idempotent' | 'unsafe';

/** One row of the operations table: everything the shared pipeline needs to run a method. */
export interface OperationDefinition<TData, TVariables, TResult> {
  /** The mutation field, e.g. `'createCouponGrant'`. */
  readonly field: string;
  /** How messages name the call: "Failed to <label>". */
  readonly label: string;
  /** The document text; starts with `mutation`, which is how the server counts it. */
  readonly document: string;
  readonly retry: RetrySafety;
  /** Map the documented updateSubscription messages to `PayloadError.reason`. */
  readonly subscriptionReasons?: boolean;
  /**
   * Turns the response's data into the method's result, or throws: `PayloadError` for a failure
   * the payload reports, `InvalidResponseError` for a success without a guaranteed field (or, for a
   * bulk operation, without one result per row of `variables`).
   */
  readonly unwrap: (data: TData, context: ErrorContext, variables: TVariables) => TResult;
  /** Type carrier for the variables (never read at run time). */
  readonly variables?: TVariables;
}

/** A row as written in the table: the payload's main object(s) as sent, and what success guarantees of them. */
interface OperationRow<TData, TVariables, TResult> extends Omit<OperationDefinition<TData, TVariables, TResult>, 'document' | 'variables' | 'unwrap'> {
  /** Picks the result out of the payload (throwing `PayloadError` for a reported failure); nothing is checked yet. */
  readonly unwrap: (data: TData, context: ErrorContext, variables: TVariables) => Unchecked<TResult>;
  /** The fields a successful result always carries (from the table in guaranteed-fields.ts). */
  readonly guaranteed: ResultShape<TResult>;
}

function defineOperation<TData, TVariables, TResult>(
  document: TypedDocumentString<TData, TVariables>,
  { unwrap, guaranteed, ...definition }: OperationRow<TData, TVariables, TResult>,
): OperationDefinition<TData, TVariables, TResult> {
  return Object.freeze({
    ...definition,
    // Generated strings open with a newline and indentation; the server classifies a request as a
    // mutation only when the query string starts with `mutation`, so the leading space must go.
    document: String(document).trimStart(),
    unwrap: (data: TData, context: ErrorContext, variables: TVariables) => requireGuaranteed(unwrap(data, context, variables), guaranteed, context),
  });
}

/** The name of a documented mutation. */
export type OperationName =
  | 'updateSubscription'
  | 'createConsultingService'
  | 'updateConsultingService'
  | 'deleteConsultingService'
  | 'bulkCreateConsultingMeetings'
  | 'updateConsultingMeeting'
  | 'cancelConsultingMeeting'
  | 'bulkCancelConsultingMeetings'
  | 'enrollStudentToConsultingMeeting'
  | 'removeStudentFromConsultingMeeting'
  | 'rescheduleStudentConsultingMeeting'
  | 'rateConsultingMeeting'
  | 'createCoupon'
  | 'updateCoupon'
  | 'createCouponGrant'
  | 'revokeCouponGrant';

/** The table of the 16 documented mutations. */
export const OPERATIONS = {
  updateSubscription: defineOperation(UpdateSubscriptionDocument, {
    field: 'updateSubscription',
    label: 'update the subscription period',
    retry: 'idempotent', // sets an absolute end date
    subscriptionReasons: true,
    guaranteed: GUARANTEED_FIELDS.Subscription,
    unwrap: (data, context) => requireMain(data.updateSubscription, 'subscription', context),
  }),
  createConsultingService: defineOperation(CreateConsultingServiceDocument, {
    field: 'createConsultingService',
    label: 'create the consulting service',
    retry: 'unsafe',
    guaranteed: GUARANTEED_FIELDS.ConsultingService,
    unwrap: (data, context) => requireMain(data.createConsultingService, 'consultingService', context),
  }),
  updateConsultingService: defineOperation(UpdateConsultingServiceDocument, {
    field: 'updateConsultingService',
    label: 'update the consulting service',
    retry: 'idempotent',
    guaranteed: GUARANTEED_FIELDS.ConsultingService,
    unwrap: (data, context) => requireMain(data.updateConsultingService, 'consultingService', context),
  }),
  deleteConsultingService: defineOperation(DeleteConsultingServiceDocument, {
    field: 'deleteConsultingService',
    label: 'delete the consulting service',
    retry: 'unsafe',
    guaranteed: GUARANTEED_FIELDS.DiscardedConsultingService,
    unwrap: (data, context) => requireMain(data.deleteConsultingService, 'consultingService', context),
  }),
  bulkCreateConsultingMeetings: defineOperation(BulkCreateConsultingMeetingsDocument, {
    field: 'bulkCreateConsultingMeetings',
    label: 'create the meetings',
    retry: 'unsafe',
    guaranteed: GUARANTEED_FIELDS.BulkResult,
    unwrap: (data, context, variables) => toBulkResult(data.bulkCreateConsultingMeetings, variables.inputs, 'rows', context),
  }),
  updateConsultingMeeting: defineOperation(UpdateConsultingMeetingDocument, {
    field: 'updateConsultingMeeting',
    label: 'update the meeting',
    retry: 'idempotent',
    guaranteed: GUARANTEED_FIELDS.ConsultingMeeting,
    unwrap: (data, context) => requireMain(data.updateConsultingMeeting, 'meeting', context),
  }),
  cancelConsultingMeeting: defineOperation(CancelConsultingMeetingDocument, {
    field: 'cancelConsultingMeeting',
    label: 'cancel the meeting',
    retry: 'unsafe',
    guaranteed: GUARANTEED_FIELDS.ConsultingMeeting,
    unwrap: (data, context) => requireMain(data.cancelConsultingMeeting, 'meeting', context),
  }),
  bulkCancelConsultingMeetings: defineOperation(BulkCancelConsultingMeetingsDocument, {
    field: 'bulkCancelConsultingMeetings',
    label: 'cancel the meetings',
    retry: 'unsafe',
    guaranteed: GUARANTEED_FIELDS.BulkResult,
    unwrap: (data, context, variables) => toBulkResult(data.bulkCancelConsultingMeetings, variables.ids, 'ids', context),
  }),
  enrollStudentToConsultingMeeting: defineOperation(EnrollStudentToConsultingMeetingDocument, {
    field: 'enrollStudentToConsultingMeeting',
    label: 'enroll the student',
    retry: 'idempotent', // re-enrolling an enrolled student is a no-op
    guaranteed: GUARANTEED_FIELDS.EnrollResult,
    unwrap: (data, context) => {
      const payload = data.enrollStudentToConsultingMeeting;
      return { meeting: requireMain(payload, 'meeting', context), user: payload.user };
    },
  }),
  removeStudentFromConsultingMeeting: defineOperation(RemoveStudentFromConsultingMeetingDocument, {
    field: 'removeStudentFromConsultingMeeting',
    label: 'remove the student from the meeting',
    retry: 'unsafe', // a repeat after success fails with MEETING-006
    guaranteed: GUARANTEED_FIELDS.ConsultingMeeting,
    unwrap: (data, context) => requireMain(data.removeStudentFromConsultingMeeting, 'meeting', context),
  }),
  rescheduleStudentConsultingMeeting: defineOperation(RescheduleStudentConsultingMeetingDocument, {
    field: 'rescheduleStudentConsultingMeeting',
    label: 'reschedule the student',
    retry: 'idempotent', // convergent: already in the target skips the enroll step
    guaranteed: GUARANTEED_FIELDS.RescheduleResult,
    unwrap: (data, context) => {
      const payload = data.rescheduleStudentConsultingMeeting;
      return { fromMeeting: payload.fromMeeting, toMeeting: requireMain(payload, 'toMeeting', context) };
    },
  }),
  rateConsultingMeeting: defineOperation(RateConsultingMeetingDocument, {
    field: 'rateConsultingMeeting',
    label: 'rate the meeting',
    retry: 'idempotent', // upsert: a repeat replaces the whole rating
    guaranteed: GUARANTEED_FIELDS.AttendeeRating,
    unwrap: (data, context) => requireMain(data.rateConsultingMeeting, 'attendeeRating', context),
  }),
  createCoupon: defineOperation(CreateCouponDocument, {
    field: 'createCoupon',
    label: 'create the coupon',
    retry: 'unsafe',
    guaranteed: GUARANTEED_FIELDS.Coupon,
    unwrap: (data, context) => requireMain(data.createCoupon, 'coupon', context) as Unchecked<Coupon>, // BigInt timestamps are numbers once normalised
  }),
  updateCoupon: defineOperation(UpdateCouponDocument, {
    field: 'updateCoupon',
    label: 'update the coupon',
    retry: 'idempotent',
    guaranteed: GUARANTEED_FIELDS.Coupon,
    unwrap: (data, context) => requireMain(data.updateCoupon, 'coupon', context) as Unchecked<Coupon>,
  }),
  createCouponGrant: defineOperation(CreateCouponGrantDocument, {
    field: 'createCouponGrant',
    label: 'grant the coupon',
    retry: 'idempotent', // granting again returns the existing grant with created: false
    guaranteed: GUARANTEED_FIELDS.GrantResult,
    unwrap: (data, context) => {
      const payload = data.createCouponGrant;
      // Anything but a boolean is no answer to "was it created?": null, so the guarantee check refuses it.
      return { grant: requireMain(payload, 'grant', context), created: typeof payload.created === 'boolean' ? payload.created : null };
    },
  }),
  revokeCouponGrant: defineOperation(RevokeCouponGrantDocument, {
    field: 'revokeCouponGrant',
    label: 'revoke the coupon grant',
    retry: 'unsafe', // a repeat after success fails with COUPON-004
    guaranteed: GUARANTEED_FIELDS.RevokedCouponGrant,
    unwrap: (data, context) => requireMain(data.revokeCouponGrant, 'grant', context),
  }),
} as const satisfies Record<OperationName, unknown>;

/**
 * The documents `createCoupon` and `updateCoupon` send with `{ includeGrants: true }`: the same
 * mutations, their coupon with every grant (the default documents leave the list out).
 */
export const COUPON_WITH_GRANTS = {
  createCoupon: defineOperation(CreateCouponWithGrantsDocument, {
    field: 'createCoupon',
    label: OPERATIONS.createCoupon.label,
    retry: OPERATIONS.createCoupon.retry,
    guaranteed: GUARANTEED_FIELDS.CouponWithGrants,
    unwrap: (data, context) => requireMain(data.createCoupon, 'coupon', context) as Unchecked<CouponWithGrants>,
  }),
  updateCoupon: defineOperation(UpdateCouponWithGrantsDocument, {
    field: 'updateCoupon',
    label: OPERATIONS.updateCoupon.label,
    retry: OPERATIONS.updateCoupon.retry,
    guaranteed: GUARANTEED_FIELDS.CouponWithGrants,
    unwrap: (data, context) => requireMain(data.updateCoupon, 'coupon', context) as Unchecked<CouponWithGrants>,
  }),
} as const;

/** What integrators may read of an operation: its document and how the client retries it. */
export interface OperationSummary {
  /** The mutation field, e.g. `'createCouponGrant'`. */
  readonly field: string;
  /** How error messages name the call. */
  readonly label: string;
  /** The document the client sends (starts with `mutation`). */
  readonly document: string;
  /** Whether the client sends it again after a failure that may have reached the server. */
  readonly retry: RetrySafety;
}

/**
 * The 16 documented mutations as the client sends them: document text and retry safety.
 *
 * @example
 * ```ts
 * OPERATIONS.createCouponGrant.retry; //=> 'idempotent'
 * ```
 */
export const PUBLIC_OPERATIONS: Readonly<Record<OperationName, OperationSummary>> = OPERATIONS;
