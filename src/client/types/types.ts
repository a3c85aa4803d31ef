import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import type { AnswerInput } from './input-types.js';
import type { AdminUser, ConsultingMeeting, CouponGrant } from './result-types.js';
import type { ErrorCode } from '../../errors/error-codes.js';

export type * from './enumerations.js';
export type * from './input-types.js';
export type * from './result-types.js';

/** Identifies a member by id. */
export interface ByUserId {
  /** The member's user id (UUID). */
  userId: string;
  /** Not with `userId`: exactly one of the two identifies the member. */
  email?: undefined;
}

/** Identifies a member by email (matched case-insensitively within the school). */
export interface ByEmail {
  /** The member's email. */
  email: string;
  /** Not with `email`: exactly one of the two identifies the member. */
  userId?: undefined;
}

/** Exactly one of `userId` or `email`. */
export type MemberRef = ByUserId | ByEmail;

/** Who to enroll: an existing student by id, or by email (a student is created when none matches; `name` is then required). */
export type EnrollTarget =
  | ByUserId
  | (ByEmail & {
      /** The student's name, required when no member has this email yet (else ENROLLMENT-007). */
      name?: string | undefined;
    });

/** The rating of `rateMeeting`: `score` (0.5 to 10 in 0.5 steps) and `comment` in default mode, `answers` in custom mode. */
export interface RatingInput {
  /** Default mode: 0.5 to 10 in steps of 0.5 (checked before sending: MEETING-014). */
  score?: number | undefined;
  /** Default mode: an optional comment. */
  comment?: string | undefined;
  /** Custom mode: one entry per answered field; a repeated call replaces the whole set. */
  answers?: AnswerInput[] | undefined;
  /** The grader (owner or TA); the meeting's host when omitted. */
  raterId?: string | undefined;
}

/** What `rescheduleStudent` moves. */
export interface RescheduleInput {
  /** The student to move. */
  userId: string;
  /** The meeting the student leaves (refused with MEETING-020 once it has ended). */
  fromMeetingId: string;
  /** The meeting the student joins (may belong to another service of the school). */
  toMeetingId: string;
}

/**
 * One error of a bulk row (`BulkRow.errors`), parsed from the server's text so that code can branch
 * on its `code` and use its `valid_options=` hint without reading the message. The server reports
 * a failed row in the row (its `meeting` null), not by throwing: the other rows of the call ran.
 *
 * @example
 * ```ts
 * const { results } = await admin.bulkCreateMeetings(serviceId, rows);
 * results.forEach((row, i) => {
 *   for (const error of row.errors) {
 *     if (error.code === 'MEETING-012') console.log(`row ${i}: valid hosts`, error.validOptions, error.validOptionsTruncated ? '(truncated)' : '');
 *     else console.log(`row ${i}: ${error.code ?? 'no code'}: ${error.message}`);
 *   }
 * });
 * ```
 */
export interface RowError {
  /** The server's text, as sent. */
  message: string;
  /** The error code found in the text (e.g. `'MEETING-012'`), when there is one; codes the spec does not list are kept as sent. */
  code?: ErrorCode | (string & {});
  /** The values of a `valid_options=` suffix, when there is one. */
  validOptions?: string[];
  /** True when the server truncated the `valid_options=` list (it is a hint, not the full pool). */
  validOptionsTruncated: boolean;
}

/** One row of a {@link BulkResult}: `results[i]` belongs to input `i`. */
export interface BulkRow {
  /** The meeting the row produced (created or canceled); null when the row failed. */
  meeting: ConsultingMeeting | null;
  /**
   * The row's errors, parsed; empty when the row succeeded (never null: `row.errors.map(...)`
   * needs no guard, as for {@link BulkResult.errors}).
   */
  errors: RowError[];
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

/** The result of `enrollStudent`: both fields are never null on success. */
export interface EnrollResult {
  /** The meeting after the enrollment (`scheduled` from the first enrollment on). */
  meeting: ConsultingMeeting;
  /** The enrolled student (created when enrolled by an unknown email). */
  user: AdminUser;
}

/**
 * The result of `rescheduleStudent`: both meetings exist (else MEETING-001), so both fields are
 * never null on success.
 */
export interface RescheduleResult {
  /** The source meeting after the move (`available` again when it was emptied). */
  fromMeeting: ConsultingMeeting;
  /** The target meeting after the move (`scheduled`). */
  toMeeting: ConsultingMeeting;
}

/** The result of `grantCoupon`: both fields are never null on success. */
export interface GrantResult {
  /** The member's grant: the new one, or the one already held. */
  grant: CouponGrant;
  /** False when the member already held an active grant (the existing grant is returned). */
  created: boolean;
}

/**
 * Per-call options, the optional last argument of every method. Each value overrides the client's
 * for this call only; omitted ones keep the client's (`new AdminClient(...)` or `withOptions`).
 *
 * @example
 * ```ts
 * await admin.grantCoupon(couponId, { email }, { timeoutMs: 5_000, maxRetries: 1, headers: { 'X-Trace-Id': traceId } });
 * ```
 */
export interface CallOptions {
  /** Aborting cancels the wait for a rate-limit slot, a retry delay and the request itself. */
  signal?: AbortSignal | undefined;
  /**
   * Per attempt of this call: until the whole response has arrived. With pacing on it must be
   * shorter than the client's `limits.leaseMs` (a permit must not be freed while its request may
   * still arrive), which defaults to the client's `timeoutMs` + 5 s: 35 s for a client with the
   * default 30 s. A longer value is refused with `InvalidInputError` (`field: 'timeoutMs'`, nothing
   * sent); for longer calls create the client with a larger `timeoutMs` (its lease follows) or
   * `limits.leaseMs`. With `limits: false` there is no ceiling. The same rule holds for
   * `withOptions({ timeoutMs })`.
   * @default the client's `timeoutMs`
   */
  timeoutMs?: number | undefined;
  /**
   * How often this call is retried (transient failures of operations safe to repeat, and 429s).
   * @default the client's `maxRetries`
   */
  maxRetries?: number | undefined;
  /**
   * Extra request headers for this call, merged over the client's `headers` (names compared
   * case-insensitively). Refused with `InvalidInputError` naming the header, nothing sent: the key
   * header `X-Service-API-Key` in any letter case, and headers that would break the request
   * (`Content-Type`, `Content-Length`, `Content-Encoding`, `Transfer-Encoding`, `Host`, `Accept`,
   * `User-Agent` (use the `userAgent` option), `Connection` and the other hop-by-hop headers).
   */
  headers?: Record<string, string> | undefined;
  /**
   * The lane the call waits in for its rate-limit permit: an `'interactive'` call goes before every
   * queued `'background'` call of the same key (in this client, other clients of the process and,
   * with a shared store, other processes).
   * @default the client's `priority`; without one, `'interactive'` for single calls and `request()`,
   * `'background'` for `bulkCreateMeetings`, `bulkCancelMeetings` and the grants of `grantCouponToMany`
   */
  priority?: Priority | undefined;
}

export type { Priority } from '../../rate-limit/priority.js';
import type { Priority } from '../../rate-limit/priority.js';

/** Options of the bulk methods. */
export interface BulkOptions extends CallOptions {
  /**
   * Roll back every row when any fails. Cannot be combined with videoconf rows (MEETING-010) or
   * with more rows than `bulkChunkSize` (one atomic batch cannot be split).
   * @default false
   */
  atomic?: boolean | undefined;
}

/** Options of `createCoupon` and `updateCoupon`. */
export interface CouponCallOptions extends CallOptions {
  /**
   * Also return every grant of the coupon (`CouponWithGrants.grants`). The answer then grows with
   * the coupon: about 220 bytes a grant, 4.4 MB for 20,000 grants (the default answer: about 300
   * bytes), and past `maxResponseBytes` (16 MiB by default) at about 76,000, where the call fails
   * with `InvalidResponseError` `too_large` although the change was applied. Leave it off to
   * change a coupon; the spec shows no paginated way to list grants (`couponGrants`'s shape is not
   * shown), so this is the only typed one. Figures: `npm run bench:coupon-size`. Only `true` asks.
   * @default false
   */
  includeGrants?: boolean;
}

/** Options of `AdminClient.request`. */
export interface RequestOptions extends CallOptions {
  /**
   * Which operation of the document to run, sent as the request's `operationName` (required by
   * servers when the document holds several operations). It does not make a call safe to
   * repeat: a document that holds a mutation anywhere is not, whichever operation is named
   * (`idempotent: true` says so when the named one is a query). The rate-limit budget follows the
   * server's rule, the document's first word (`mutation` or not), whichever operation is named.
   * @default none: the document's only operation runs
   */
  operationName?: string | undefined;
  /**
   * Treat the document as safe to repeat after a failure that may have reached the server. Without
   * it, only a document whose text holds neither the name `mutation` nor `subscription` (in a
   * comment, a string or a field name included) is: such a text holds queries only.
   * @default false
   */
  idempotent?: boolean | undefined;
}

/**
 * What `AdminClient.request` reads of a parsed graphql-js `DocumentNode`. Structural, so documents
 * of graphql 16 and 17 both fit whichever copy of graphql the SDK itself got. The text it was
 * parsed from (`loc.source.body`) is what is sent; see {@link AnyDocument}.
 */
export interface DocumentNodeLike {
  /** graphql-js's `Kind.DOCUMENT`. */
  readonly kind: 'Document';
  /** The document's operations and fragments. */
  readonly definitions: ReadonlyArray<unknown>;
  /** Where the document was parsed from; `source.body` is the text sent. Absent with `noLocation`. */
  readonly loc?:
    | {
        /** The source the document was parsed from. */
        readonly source?:
          | {
              /** The document's text. */
              readonly body?: string | undefined;
            }
          | undefined;
      }
    | undefined;
}

/**
 * A document for `AdminClient.request`: text, a typed string document (codegen's
 * `TypedDocumentString`), or a parsed `DocumentNode` (e.g. `parse(...)` of graphql 16 or 17, or a
 * `TypedDocumentNode`). A parsed document is sent as the text it was parsed from; a document
 * without location information is printed. A document transformed after parsing keeps its
 * original text, so print such a document yourself and pass the string.
 */
export type AnyDocument<TResult, TVariables> = string | DocumentTypeDecoration<TResult, TVariables> | DocumentNodeLike;
