import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
import { print, type DocumentNode } from 'graphql';
import { Redactor } from '../errors/redactor.js';
import { bucketName } from '../rate-limit/bucket-name.js';
import { RateLimiter } from '../rate-limit/limiter.js';
import { operationTypeOf } from '../rate-limit/operation-type.js';
import { sharedMemoryStore } from '../rate-limit/shared-memory-store.js';
import type { ErrorContext } from '../response/error-context.js';
import { GraphQLTransport } from '../transport/graphql-transport.js';
import { checkSlug } from '../validation/consulting-service.js';
import { checkCoupon } from '../validation/coupon.js';
import { invalidInput, localCodedError, requireId, type LocalContext } from '../validation/local-errors.js';
import { checkMeetingRows } from '../validation/meeting-rows.js';
import { requireOneMember } from '../validation/member-ref.js';
import { checkRating } from '../validation/rating.js';
import { grantCouponToMany } from '../workflows/grant-to-many.js';
import type { GrantMemberSource, GrantToManyOptions, GrantToManySummary } from '../workflows/grant-to-many.js';
import { mergeBulkResults } from './bulk-result.js';
import { ClientEvents, type ClientEventListener, type ClientEventMap } from './client-events.js';
import { attachLogger } from './logging.js';
import { normalizeIntegers } from './normalize-integers.js';
import { OPERATIONS, type OperationDefinition } from './operations.js';
import type { AdminClientOptions } from './options.js';
import { RequestPipeline } from './pipeline.js';
import { resolveOptions, type ResolvedClientOptions } from './resolve-options.js';
import { toUnixSeconds, withUnixSeconds } from './timestamps.js';
import type {
  AttendeeRating,
  BulkResult,
  CallOptions,
  ConsultingMeeting,
  ConsultingService,
  ConsultingServiceInput,
  ConsultingServiceUpdateInput,
  Coupon,
  CouponGrant,
  CouponInput,
  CouponUpdateInput,
  EnrollResult,
  EnrollTarget,
  GrantResult,
  MeetingRowInput,
  MeetingUpdateInput,
  MemberRef,
  RatingInput,
  RescheduleInput,
  RescheduleResult,
  Subscription,
  Timestamp,
} from './types.js';
import { SDK_VERSION } from './version.js';

/** Options of the bulk methods. */
export interface BulkOptions extends CallOptions {
  /**
   * Roll back every row when any fails. Cannot be combined with videoconf rows (MEETING-010) or
   * with more rows than `bulkChunkSize` (one atomic batch cannot be split).
   * @default false
   */
  atomic?: boolean;
}

/** Options of {@link AdminClient.request}. */
export interface RequestOptions extends CallOptions {
  /**
   * Treat a mutation document as safe to repeat after a failure that may have reached the server
   * (queries always are).
   * @default false
   */
  idempotent?: boolean;
}

/** A document for {@link AdminClient.request}: text, a typed string document or a parsed `DocumentNode`. */
export type AnyDocument<TResult, TVariables> = string | DocumentTypeDecoration<TResult, TVariables> | DocumentNode;

const MEETING_TIMES = ['startedAt', 'endedAt'] as const;
const COUPON_TIMES = ['startedAt', 'expiredAt'] as const;

/**
 * The typed client of the admin GraphQL API: one method per documented operation, coded errors
 * parsed into error classes, requests paced under the key's rate limits, 429s and transient
 * failures retried where the operation is safe to repeat.
 *
 * @example
 * ```ts
 * import { AdminClient, hasCode } from 'school-admin-sdk';
 *
 * const admin = new AdminClient({ apiKey: process.env.ADMIN_API_KEY!, baseUrl: 'https://school.example' });
 * const { grant, created } = await admin.grantCoupon(couponId, { email: 'ada@example.com' });
 * ```
 */
export class AdminClient {
  readonly #options: ResolvedClientOptions;
  readonly #events = new ClientEvents();
  readonly #pipeline: RequestPipeline;

  constructor(options: AdminClientOptions) {
    const resolved = resolveOptions(options);
    this.#options = resolved;
    const transport = new GraphQLTransport({
      endpoint: resolved.endpoint,
      headers: { 'X-Service-API-Key': resolved.apiKey, 'User-Agent': userAgent(resolved.userAgentSuffix) },
      fetch: resolved.fetch,
      timeoutMs: resolved.timeoutMs,
      maxResponseBytes: resolved.maxResponseBytes,
    });
    const limiter =
      resolved.pacing === false
        ? undefined
        : new RateLimiter({
            store: resolved.pacing.store ?? sharedMemoryStore(),
            buckets: { mutations: bucketName(resolved.apiKey, 'mutations'), queries: bucketName(resolved.apiKey, 'queries') },
            budgets: { mutations: resolved.pacing.mutations, queries: resolved.pacing.queries },
            leaseMs: resolved.pacing.leaseMs,
          });
    this.#pipeline = new RequestPipeline(resolved, transport, limiter, this.#events);
    if (resolved.logger !== undefined) attachLogger(this.#events, resolved.logger, resolved.logLevel);
  }

  /**
   * Listens to the client's events (`request`, `response`, `rateLimited`, `retry`); returns a
   * function that stops listening. Events never carry the key or request variables.
   *
   * @example
   * ```ts
   * admin.on('rateLimited', (event) => console.warn(`paused ${event.waitMs} ms`));
   * ```
   */
  on<K extends keyof ClientEventMap>(name: K, listener: ClientEventListener<K>): () => void {
    return this.#events.on(name, listener);
  }

  /**
   * Moves the end of a subscription's current period (extend or shorten).
   * Refusals throw `PayloadError` with a stable `reason` (e.g. `'pending_cancellation'`).
   *
   * @example
   * ```ts
   * await admin.updateSubscriptionPeriod(subscriptionId, new Date('2027-01-31T00:00:00Z'));
   * ```
   */
  async updateSubscriptionPeriod(id: string, currentPeriodEnd: Timestamp, options?: CallOptions): Promise<Subscription> {
    const op = OPERATIONS.updateSubscription;
    const context = local('updateSubscriptionPeriod', op);
    requireId(context, 'id', id);
    const end = currentPeriodEnd instanceof Date || typeof currentPeriodEnd === 'number' ? toUnixSeconds(currentPeriodEnd) : Number.NaN;
    if (!Number.isInteger(end)) throw invalidInput(context, 'currentPeriodEnd', 'currentPeriodEnd must be a Date or whole Unix seconds');
    return this.#run('updateSubscriptionPeriod', op, { id, currentPeriodEnd: end }, options);
  }

  /**
   * Creates a consulting service under a course (slug checked locally: CONSULTING-003).
   *
   * @example
   * ```ts
   * const service = await admin.createConsultingService({ name: 'Office hours', courseId, published: true });
   * ```
   */
  async createConsultingService(input: ConsultingServiceInput, options?: CallOptions): Promise<ConsultingService> {
    const op = OPERATIONS.createConsultingService;
    const context = local('createConsultingService', op);
    requireId(context, 'courseId', input?.courseId);
    checkSlug(context, input.slug);
    return this.#run('createConsultingService', op, { input }, options);
  }

  /**
   * Updates a consulting service; only provided keys change, `null` clears `lecturerId`,
   * `ratingFormId` and `backgroundColor`, `published: false` keeps `publishedAt`.
   *
   * @example
   * ```ts
   * await admin.updateConsultingService(serviceId, { published: true, tags: ['math'] });
   * ```
   */
  async updateConsultingService(id: string, input: ConsultingServiceUpdateInput, options?: CallOptions): Promise<ConsultingService> {
    const op = OPERATIONS.updateConsultingService;
    const context = local('updateConsultingService', op);
    requireId(context, 'id', id);
    checkSlug(context, input?.slug);
    return this.#run('updateConsultingService', op, { id, input }, options);
  }

  /**
   * Soft-deletes a consulting service (CONSULTING-004 while it has future meetings that are not canceled).
   *
   * @example
   * ```ts
   * const discarded = await admin.deleteConsultingService(serviceId); // discarded.discardedAt is set
   * ```
   */
  async deleteConsultingService(id: string, options?: CallOptions): Promise<ConsultingService> {
    const op = OPERATIONS.deleteConsultingService;
    requireId(local('deleteConsultingService', op), 'id', id);
    return this.#run('deleteConsultingService', op, { id }, options);
  }

  /**
   * Creates meeting slots. Row failures stay per row (`results[i].errors`, parsed for codes and
   * `valid_options=` hints); inputs over `bulkChunkSize` rows are sent in chunks, in order.
   *
   * @example
   * ```ts
   * const result = await admin.bulkCreateMeetings(serviceId, [
   *   { startedAt: new Date('2027-01-05T10:00:00Z'), endedAt: new Date('2027-01-05T11:00:00Z'), maxAttendeeCapacity: 4 },
   * ]);
   * for (const row of result.results) if (row.errors) console.log(row.errors[0]?.code, row.errors[0]?.validOptions);
   * ```
   */
  async bulkCreateMeetings(serviceId: string, rows: readonly MeetingRowInput[], options: BulkOptions = {}): Promise<BulkResult> {
    const op = OPERATIONS.bulkCreateConsultingMeetings;
    const context = local('bulkCreateMeetings', op);
    requireId(context, 'serviceId', serviceId);
    if (!Array.isArray(rows)) throw invalidInput(context, 'rows', 'rows must be an array');
    const atomic = options.atomic === true;
    checkMeetingRows(context, rows, atomic);
    const inputs = rows.map((row) => withUnixSeconds(row, MEETING_TIMES));
    return this.#chunked(context, inputs, atomic, (chunk) =>
      this.#run('bulkCreateMeetings', op, { serviceId, inputs: chunk as never, ...(atomic ? { atomic } : {}) }, options),
    );
  }

  /**
   * Updates a meeting; only provided fields change (`null` means no change). Times cannot change
   * once students are enrolled (MEETING-003).
   *
   * @example
   * ```ts
   * await admin.updateMeeting(meetingId, { hostUserId: taId, maxAttendeeCapacity: 6 });
   * ```
   */
  async updateMeeting(id: string, input: MeetingUpdateInput, options?: CallOptions): Promise<ConsultingMeeting> {
    const op = OPERATIONS.updateConsultingMeeting;
    requireId(local('updateMeeting', op), 'id', id);
    return this.#run('updateMeeting', op, { id, input: withUnixSeconds(input, MEETING_TIMES) as never }, options);
  }

  /**
   * Cancels an available or scheduled meeting (MEETING-007 when already canceled).
   *
   * @example
   * ```ts
   * const canceled = await admin.cancelMeeting(meetingId); // canceled.state === 'canceled'
   * ```
   */
  async cancelMeeting(id: string, options?: CallOptions): Promise<ConsultingMeeting> {
    const op = OPERATIONS.cancelConsultingMeeting;
    requireId(local('cancelMeeting', op), 'id', id);
    return this.#run('cancelMeeting', op, { id }, options);
  }

  /**
   * Cancels many meetings; `results[i]` belongs to `ids[i]`, failures stay per row.
   *
   * @example
   * ```ts
   * const { allSucceeded, results } = await admin.bulkCancelMeetings([id1, id2]);
   * ```
   */
  async bulkCancelMeetings(ids: readonly string[], options: BulkOptions = {}): Promise<BulkResult> {
    const op = OPERATIONS.bulkCancelConsultingMeetings;
    const context = local('bulkCancelMeetings', op);
    if (!Array.isArray(ids)) throw invalidInput(context, 'ids', 'ids must be an array of meeting ids');
    ids.forEach((id, index) => requireId(context, `ids[${index}]`, id));
    const atomic = options.atomic === true;
    return this.#chunked(context, [...ids], atomic, (chunk) =>
      this.#run('bulkCancelMeetings', op, { ids: chunk, ...(atomic ? { atomic } : {}) }, options),
    );
  }

  /**
   * Enrolls a student (idempotent). By email, a student is created when none matches (then `name`
   * is required: ENROLLMENT-007).
   *
   * @example
   * ```ts
   * const { meeting } = await admin.enrollStudent(meetingId, { email: 'ada@example.com', name: 'Ada' });
   * ```
   */
  async enrollStudent(meetingId: string, student: EnrollTarget, options?: CallOptions): Promise<EnrollResult> {
    const op = OPERATIONS.enrollStudentToConsultingMeeting;
    const context = local('enrollStudent', op);
    requireId(context, 'meetingId', meetingId);
    requireOneMember(context, student, { neither: 'ENROLLMENT-001' });
    return this.#run('enrollStudent', op, { meetingId, ...student }, options);
  }

  /**
   * Removes an enrolled student; an emptied scheduled meeting becomes available again.
   *
   * @example
   * ```ts
   * await admin.removeStudent(meetingId, userId);
   * ```
   */
  async removeStudent(meetingId: string, userId: string, options?: CallOptions): Promise<ConsultingMeeting> {
    const op = OPERATIONS.removeStudentFromConsultingMeeting;
    const context = local('removeStudent', op);
    requireId(context, 'meetingId', meetingId);
    requireId(context, 'userId', userId);
    return this.#run('removeStudent', op, { meetingId, userId }, options);
  }

  /**
   * Moves a student to another meeting in one transaction (convergent: safe to repeat).
   *
   * @example
   * ```ts
   * const { toMeeting } = await admin.rescheduleStudent({ userId, fromMeetingId, toMeetingId });
   * ```
   */
  async rescheduleStudent(input: RescheduleInput, options?: CallOptions): Promise<RescheduleResult> {
    const op = OPERATIONS.rescheduleStudentConsultingMeeting;
    const context = local('rescheduleStudent', op);
    requireId(context, 'userId', input?.userId);
    requireId(context, 'fromMeetingId', input.fromMeetingId);
    requireId(context, 'toMeetingId', input.toMeetingId);
    if (input.fromMeetingId === input.toMeetingId) throw localCodedError(context, 'MEETING-019');
    const { userId, fromMeetingId, toMeetingId } = input;
    return this.#run('rescheduleStudent', op, { userId, fromMeetingId, toMeetingId }, options);
  }

  /**
   * Rates an enrolled student (upsert: a repeat replaces the whole rating; the student is
   * emailed). Default mode: `score` 0.5-10 in 0.5 steps and `comment`; custom mode: `answers`.
   *
   * @example
   * ```ts
   * await admin.rateMeeting(meetingId, { userId }, { score: 8.5, comment: 'Well prepared' });
   * ```
   */
  async rateMeeting(meetingId: string, student: MemberRef, rating: RatingInput, options?: CallOptions): Promise<AttendeeRating> {
    const op = OPERATIONS.rateConsultingMeeting;
    const context = local('rateMeeting', op);
    requireId(context, 'meetingId', meetingId);
    requireOneMember(context, student, { both: 'MEETING-016', neither: 'ENROLLMENT-001' });
    checkRating(context, rating ?? {});
    return this.#run('rateMeeting', op, { meetingId, ...student, ...rating }, options);
  }

  /**
   * Creates a coupon (type, percentage bounds and expiry order checked locally).
   *
   * @example
   * ```ts
   * const coupon = await admin.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20, restricted: true });
   * ```
   */
  async createCoupon(input: CouponInput, options?: CallOptions): Promise<Coupon> {
    const op = OPERATIONS.createCoupon;
    const context = local('createCoupon', op);
    if (input === null || typeof input !== 'object') throw invalidInput(context, 'input', 'input must be an object');
    checkCoupon(context, input);
    return this.#run('createCoupon', op, { input: withUnixSeconds(input, COUPON_TIMES) as never }, options);
  }

  /**
   * Updates a coupon; omitted fields keep their values (`code` and `restricted` cannot change).
   *
   * @example
   * ```ts
   * await admin.updateCoupon(couponId, { active: false });
   * ```
   */
  async updateCoupon(id: string, input: CouponUpdateInput, options?: CallOptions): Promise<Coupon> {
    const op = OPERATIONS.updateCoupon;
    const context = local('updateCoupon', op);
    requireId(context, 'id', id);
    if (input === null || typeof input !== 'object') throw invalidInput(context, 'input', 'input must be an object');
    checkCoupon(context, input);
    return this.#run('updateCoupon', op, { id, input: withUnixSeconds(input, COUPON_TIMES) as never }, options);
  }

  /**
   * Grants a restricted coupon to one member (idempotent: `created: false` when the member already
   * held an active grant). Sends the member nothing.
   *
   * @example
   * ```ts
   * const { grant, created } = await admin.grantCoupon(couponId, { email: 'ada@example.com' });
   * ```
   */
  async grantCoupon(couponId: string, member: MemberRef, options?: CallOptions): Promise<GrantResult> {
    const op = OPERATIONS.createCouponGrant;
    const context = local('grantCoupon', op);
    requireId(context, 'couponId', couponId);
    requireOneMember(context, member, { both: 'COUPON-006', neither: 'COUPON-005' });
    return this.#run('grantCoupon', op, { couponId, ...member }, options);
  }

  /**
   * Grants a restricted coupon to many members, paced by this client's limiter: members stream in
   * (an array, an iterable or an async iterable of `{ email }` / `{ userId }`; never read ahead),
   * at most `concurrency` grants are in flight, and each row ends with an outcome: `created`,
   * `already_granted`, `failed` (with the parsed error), `invalid` (both or neither identifier, a
   * malformed email or id: never sent) or `skipped` (already done per the journal).
   *
   * With `journal`, each finished member is appended to that file, and a run killed or interrupted
   * part-way resumes where it stopped: `created`/`already_granted` members are skipped, `failed`
   * ones retried. The same member twice in the input is never in flight twice: the second row waits
   * for the first, then is `skipped` (with a journal) or sent again (answered `already_granted`).
   *
   * `signal` stops the job cleanly: no new row, grants in flight finish and are journaled (within
   * `interruptGraceMs`), and the promise resolves with `interrupted: true`. A job-level error (the
   * coupon is unknown or not restricted, the key is refused, the journal cannot be written, the
   * input throws) stops taking rows and rejects with that error once the grants in flight settle;
   * the first grant is sent alone, so such an error costs one request, not a burst.
   *
   * @throws {InvalidInputError} for a bad `couponId`, `members` or option (nothing sent).
   * @throws {JournalMismatchError} when the journal was written for another coupon.
   * @example
   * ```ts
   * const summary = await admin.grantCouponToMany(couponId, [{ email: 'ada@example.com' }, { userId }], {
   *   journal: 'alumni-grants.journal',
   *   onProgress: (p) => console.log(`${p.done}/${p.total} ETA ${Math.round((p.etaMs ?? 0) / 1000)} s`),
   * });
   * console.log(summary.counts); // { created: 2, already_granted: 0, failed: 0, invalid: 0, skipped: 0 }
   * ```
   */
  async grantCouponToMany(couponId: string, members: GrantMemberSource, options: GrantToManyOptions = {}): Promise<GrantToManySummary> {
    const budget = this.#options.pacing === false ? undefined : this.#options.pacing.mutations;
    return grantCouponToMany(this, couponId, members, options, { budget });
  }

  /**
   * Revokes a grant (COUPON-004 when unknown or already revoked); a redemption is not undone.
   *
   * @example
   * ```ts
   * const grant = await admin.revokeCouponGrant(grantId); // grant.status === 'revoked'
   * ```
   */
  async revokeCouponGrant(grantId: string, options?: CallOptions): Promise<CouponGrant> {
    const op = OPERATIONS.revokeCouponGrant;
    requireId(local('revokeCouponGrant', op), 'grantId', grantId);
    return this.#run('revokeCouponGrant', op, { grantId }, options);
  }

  /**
   * Sends any document (e.g. a query the typed methods do not cover) through the same pacing,
   * retries and error parsing; resolves to its `data`, as sent. The document is classified as
   * the server does: a mutation when its text starts with `mutation`.
   *
   * @example
   * ```ts
   * const data = await admin.request<{ __typename: string }>('query { __typename }');
   * ```
   */
  async request<TResult = Record<string, unknown>, TVariables extends object = Record<string, unknown>>(
    document: AnyDocument<TResult, TVariables>,
    variables?: TVariables,
    options: RequestOptions = {},
  ): Promise<TResult> {
    const text = typeof document === 'object' && 'kind' in document ? print(document) : String(document);
    const context = this.#context('request', 'run the request', variables);
    const safe = operationTypeOf(text) === 'queries' || options.idempotent === true;
    const data = await this.#pipeline.run(
      { operation: 'request', label: context.label, document: text, ...(variables === undefined ? {} : { variables }), retry: safe ? 'idempotent' : 'unsafe', ...signalOf(options) },
      context,
    );
    return data as TResult;
  }

  async #run<TData, TVariables extends object, TResult>(
    method: string,
    op: OperationDefinition<TData, TVariables, TResult>,
    variables: TVariables,
    options: CallOptions | undefined,
  ): Promise<TResult> {
    const context = this.#context(method, op.label, variables);
    const data = await this.#pipeline.run(
      {
        operation: method,
        label: op.label,
        document: op.document,
        variables,
        retry: op.retry,
        ...(op.subscriptionReasons === true ? { subscriptionReasons: true } : {}),
        ...signalOf(options),
      },
      context,
    );
    return op.unwrap(normalizeIntegers(data) as TData, context);
  }

  async #chunked<T>(context: LocalContext, items: T[], atomic: boolean, send: (chunk: T[]) => Promise<BulkResult>): Promise<BulkResult> {
    const size = this.#options.bulkChunkSize;
    if (items.length === 0) return { allSucceeded: true, errors: [], results: [] };
    if (items.length <= size) return send(items);
    if (atomic) {
      throw invalidInput(context, 'atomic', `an atomic batch of ${items.length} rows cannot be split into chunks of ${size} (bulkChunkSize); send at most ${size} rows or use atomic: false`);
    }
    const parts: BulkResult[] = [];
    for (let start = 0; start < items.length; start += size) parts.push(await send(items.slice(start, start + size)));
    return mergeBulkResults(parts);
  }

  #context(operation: string, label: string, variables: unknown): ErrorContext {
    return { operation, label, redactor: new Redactor([this.#options.apiKey], variables) };
  }
}

function local(operation: string, op: { label: string }): LocalContext {
  return { operation, label: op.label };
}

function signalOf(options: CallOptions | undefined): { signal?: AbortSignal } {
  return options?.signal === undefined ? {} : { signal: options.signal };
}

function userAgent(suffix: string | undefined): string {
  const runtime = typeof process === 'object' && typeof process.version === 'string' ? ` node/${process.version}` : '';
  return `school-admin-sdk/${SDK_VERSION}${runtime}${suffix === undefined ? '' : ` ${suffix}`}`;
}
