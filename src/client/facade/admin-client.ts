import { checkSlug } from '../../validation/consulting-service.js';
import { checkCoupon } from '../../validation/coupon.js';
import { invalidInput, localCodedError, localContext as local, requireId } from '../../validation/local-errors.js';
import { checkMeetingRows } from '../../validation/meeting-rows.js';
import { requireOneMember } from '../../validation/member-ref.js';
import { checkRating } from '../../validation/rating.js';
import { grantCouponToMany } from '../../workflows/grant-to-many.js';
import type { GrantMemberSource, GrantToManyOptions, GrantToManySummary } from '../../workflows/grant-to-many.js';
import type { CallResponse } from '../../response/response-metadata.js';
import { startCall, type AdminApiPromise } from './api-promise.js';
import { ClientEvents, type ClientEventListener, type ClientEventMap } from '../events/client-events.js';
import { attachLogger } from '../events/logging.js';
import { deriveOptions, DerivedClientSeed, type ClientOverrides } from './derive-options.js';
import { OperationRunner, wireClient, type ClientWiring } from './operation-runner.js';
import { COUPON_WITH_GRANTS, OPERATIONS } from './operations.js';
import type { AdminClientOptions } from '../options/options.js';
import { resolveOptions, type ResolvedClientOptions } from '../options/resolve-options.js';
import type {
  AnyDocument,
  AttendeeRating,
  BulkOptions,
  BulkResult,
  CallOptions,
  ConsultingMeeting,
  ConsultingService,
  ConsultingServiceInput,
  ConsultingServiceUpdateInput,
  Coupon,
  CouponCallOptions,
  CouponInput,
  CouponUpdateInput,
  CouponWithGrants,
  DiscardedConsultingService,
  EnrollResult,
  EnrollTarget,
  GrantResult,
  MeetingRowInput,
  MeetingUpdateInput,
  MemberRef,
  RatingInput,
  RequestOptions,
  RescheduleInput,
  RescheduleResult,
  RevokedCouponGrant,
  Subscription,
  Timestamp,
} from '../types/types.js';

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
 * // or: new AdminClient(), reading ADMIN_API_KEY and ADMIN_API_URL
 * const { grant, created } = await admin.grantCoupon(couponId, { email: 'ada@example.com' });
 * ```
 */
export class AdminClient {
  readonly #options: ResolvedClientOptions;
  readonly #wiring: ClientWiring;
  readonly #events: ClientEvents;
  readonly #runner: OperationRunner;

  /**
   * @param options - see {@link AdminClientOptions}; `apiKey` and `baseUrl` default to the
   *   `ADMIN_API_KEY` and `ADMIN_API_URL` environment variables.
   * @throws {InvalidInputError} for an unusable option (naming it, never echoing the key), or when
   *   neither `apiKey` nor `ADMIN_API_KEY` (or neither `baseUrl` nor `ADMIN_API_URL`) is given.
   */
  constructor(options: AdminClientOptions = {}) {
    // withOptions() hands over its parent's wiring and events; anyone else passes options.
    const derived = options instanceof DerivedClientSeed ? options : undefined;
    this.#options = derived?.options ?? resolveOptions(options);
    this.#wiring = derived?.wiring ?? wireClient(this.#options);
    this.#events = new ClientEvents(derived?.parentEvents);
    this.#runner = new OperationRunner(this.#options, this.#wiring, this.#events);
    // The logger hangs on the root client, whose events hear every derived client's calls too.
    if (derived === undefined && this.#options.logger !== undefined) attachLogger(this.#events, this.#options.logger, this.#options.logLevel);
  }

  /**
   * A client with some options changed that shares everything that must stay one per key with this
   * one: the rate-limit budget (the same limiter: one queue, one adapted limit, one store), the
   * transport (key, `baseUrl`, `fetch`) and the events (listeners and the logger of this client
   * see the derived client's calls; the derived client's `on()` sees only its own). Changeable:
   * {@link ClientOverrides} (`timeoutMs`, `maxRetries`, `headers` (merged over this client's),
   * `priority`, retry delays, `maxRateLimitWaitMs`, `bulkChunkSize`, `authErrorCodes`,
   * `requestIdHeaders`). Any other option (`apiKey`, `baseUrl`, `fetch`, `limits`, `logger`, ...)
   * is refused with `InvalidInputError` naming it: another key or server is another client, made
   * with `new AdminClient`. Cheap: nothing is connected or allocated beyond the new options.
   *
   * @example
   * ```ts
   * const background = admin.withOptions({ priority: 'background', timeoutMs: 60_000, headers: { 'X-Job': 'nightly-sync' } });
   * await background.bulkCancelMeetings(ids); // paced under the same budget as admin's calls
   * ```
   */
  withOptions(overrides: ClientOverrides): AdminClient {
    const seed = new DerivedClientSeed(deriveOptions(this.#options, overrides), this.#wiring, this.#events);
    // The seed is not options; the constructor recognises it (it is not exported, so only this method can pass one).
    return new AdminClient(seed as unknown as AdminClientOptions);
  }

  /**
   * Listens to the client's events (`request`, `response`, `rateLimited`, `retry`); returns a
   * function that stops listening. A client hears its own calls and those of every client derived
   * from it (`withOptions`). Each event names its call (`callId`) and attempt; none carries the
   * key or request variables.
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
  updateSubscriptionPeriod(id: string, currentPeriodEnd: Timestamp, options?: CallOptions): AdminApiPromise<Subscription> {
    return startCall(() => {
      const op = OPERATIONS.updateSubscription;
      const context = local('updateSubscriptionPeriod', op);
      requireId(context, 'id', id);
      return this.#runner.run('updateSubscriptionPeriod', op, { id, currentPeriodEnd: currentPeriodEnd as number }, options);
    });
  }

  /**
   * Creates a consulting service under a course (slug checked locally: CONSULTING-003).
   *
   * @example
   * ```ts
   * const service = await admin.createConsultingService({ name: 'Office hours', courseId, published: true });
   * ```
   */
  createConsultingService(input: ConsultingServiceInput, options?: CallOptions): AdminApiPromise<ConsultingService> {
    return startCall(() => {
      const op = OPERATIONS.createConsultingService;
      const context = local('createConsultingService', op);
      requireId(context, 'courseId', input?.courseId);
      checkSlug(context, input.slug);
      return this.#runner.run('createConsultingService', op, { input }, options);
    });
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
  updateConsultingService(id: string, input: ConsultingServiceUpdateInput, options?: CallOptions): AdminApiPromise<ConsultingService> {
    return startCall(() => {
      const op = OPERATIONS.updateConsultingService;
      const context = local('updateConsultingService', op);
      requireId(context, 'id', id);
      checkSlug(context, input?.slug);
      return this.#runner.run('updateConsultingService', op, { id, input }, options);
    });
  }

  /**
   * Soft-deletes a consulting service (CONSULTING-004 while it has future meetings that are not canceled).
   *
   * @example
   * ```ts
   * const discarded = await admin.deleteConsultingService(serviceId); // discarded.discardedAt is set
   * ```
   */
  deleteConsultingService(id: string, options?: CallOptions): AdminApiPromise<DiscardedConsultingService> {
    return startCall(() => {
      const op = OPERATIONS.deleteConsultingService;
      requireId(local('deleteConsultingService', op), 'id', id);
      return this.#runner.run('deleteConsultingService', op, { id }, options);
    });
  }

  /**
   * Creates meeting slots. Row failures stay per row (`results[i].errors`, parsed for codes and
   * `valid_options=` hints); inputs over `bulkChunkSize` rows are sent in chunks, in order, after
   * every row was checked. When a chunk's call fails, `BulkChunkError` says which rows finished
   * (with their results), which chunk may or may not have run, and which rows were never sent.
   *
   * @example
   * ```ts
   * const result = await admin.bulkCreateMeetings(serviceId, [
   *   { startedAt: new Date('2027-01-05T10:00:00Z'), endedAt: new Date('2027-01-05T11:00:00Z'), maxAttendeeCapacity: 4 },
   * ]);
   * for (const row of result.results) if (row.errors) console.log(row.errors[0]?.code, row.errors[0]?.validOptions);
   * ```
   */
  bulkCreateMeetings(serviceId: string, rows: readonly MeetingRowInput[], options: BulkOptions = {}): AdminApiPromise<BulkResult, CallResponse | undefined> {
    return startCall(() => {
      const op = OPERATIONS.bulkCreateConsultingMeetings;
      const context = local('bulkCreateMeetings', op);
      requireId(context, 'serviceId', serviceId);
      if (!Array.isArray(rows)) throw invalidInput(context, 'rows', 'rows must be an array');
      const atomic = options.atomic === true;
      checkMeetingRows(context, rows, atomic);
      // Times may be Dates: the schema-driven check converts every Int/BigInt Date to Unix seconds.
      const variables = (chunk: unknown[]) => ({ serviceId, inputs: chunk as never, ...(atomic ? { atomic } : {}) });
      return this.#runner.chunked('bulkCreateMeetings', op, rows, variables, options, { inputs: 'rows' });
    });
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
  updateMeeting(id: string, input: MeetingUpdateInput, options?: CallOptions): AdminApiPromise<ConsultingMeeting> {
    return startCall(() => {
      const op = OPERATIONS.updateConsultingMeeting;
      requireId(local('updateMeeting', op), 'id', id);
      return this.#runner.run('updateMeeting', op, { id, input: input as never }, options);
    });
  }

  /**
   * Cancels an available or scheduled meeting (MEETING-007 when already canceled).
   *
   * @example
   * ```ts
   * const canceled = await admin.cancelMeeting(meetingId); // canceled.state === 'canceled'
   * ```
   */
  cancelMeeting(id: string, options?: CallOptions): AdminApiPromise<ConsultingMeeting> {
    return startCall(() => {
      const op = OPERATIONS.cancelConsultingMeeting;
      requireId(local('cancelMeeting', op), 'id', id);
      return this.#runner.run('cancelMeeting', op, { id }, options);
    });
  }

  /**
   * Cancels many meetings; `results[i]` belongs to `ids[i]`, failures stay per row. Chunked like
   * `bulkCreateMeetings` (a failed chunk throws `BulkChunkError`).
   *
   * @example
   * ```ts
   * const { allSucceeded, results } = await admin.bulkCancelMeetings([id1, id2]);
   * ```
   */
  bulkCancelMeetings(ids: readonly string[], options: BulkOptions = {}): AdminApiPromise<BulkResult, CallResponse | undefined> {
    return startCall(() => {
      const op = OPERATIONS.bulkCancelConsultingMeetings;
      const context = local('bulkCancelMeetings', op);
      if (!Array.isArray(ids)) throw invalidInput(context, 'ids', 'ids must be an array of meeting ids');
      ids.forEach((id, index) => requireId(context, `ids[${index}]`, id));
      const atomic = options.atomic === true;
      return this.#runner.chunked('bulkCancelMeetings', op, ids, (chunk) => ({ ids: chunk as string[], ...(atomic ? { atomic } : {}) }), options);
    });
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
  enrollStudent(meetingId: string, student: EnrollTarget, options?: CallOptions): AdminApiPromise<EnrollResult> {
    return startCall(() => {
      const op = OPERATIONS.enrollStudentToConsultingMeeting;
      const context = local('enrollStudent', op);
      requireId(context, 'meetingId', meetingId);
      requireOneMember(context, student, { neither: 'ENROLLMENT-001' });
      return this.#runner.run('enrollStudent', op, { meetingId, ...student }, options);
    });
  }

  /**
   * Removes an enrolled student; an emptied scheduled meeting becomes available again.
   *
   * @example
   * ```ts
   * await admin.removeStudent(meetingId, userId);
   * ```
   */
  removeStudent(meetingId: string, userId: string, options?: CallOptions): AdminApiPromise<ConsultingMeeting> {
    return startCall(() => {
      const op = OPERATIONS.removeStudentFromConsultingMeeting;
      const context = local('removeStudent', op);
      requireId(context, 'meetingId', meetingId);
      requireId(context, 'userId', userId);
      return this.#runner.run('removeStudent', op, { meetingId, userId }, options);
    });
  }

  /**
   * Moves a student to another meeting in one transaction (convergent: safe to repeat).
   *
   * @example
   * ```ts
   * const { toMeeting } = await admin.rescheduleStudent({ userId, fromMeetingId, toMeetingId });
   * ```
   */
  rescheduleStudent(input: RescheduleInput, options?: CallOptions): AdminApiPromise<RescheduleResult> {
    return startCall(() => {
      const op = OPERATIONS.rescheduleStudentConsultingMeeting;
      const context = local('rescheduleStudent', op);
      requireId(context, 'userId', input?.userId);
      requireId(context, 'fromMeetingId', input.fromMeetingId);
      requireId(context, 'toMeetingId', input.toMeetingId);
      if (input.fromMeetingId === input.toMeetingId) throw localCodedError(context, 'MEETING-019');
      const { userId, fromMeetingId, toMeetingId } = input;
      return this.#runner.run('rescheduleStudent', op, { userId, fromMeetingId, toMeetingId }, options);
    });
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
  rateMeeting(meetingId: string, student: MemberRef, rating: RatingInput, options?: CallOptions): AdminApiPromise<AttendeeRating> {
    return startCall(() => {
      const op = OPERATIONS.rateConsultingMeeting;
      const context = local('rateMeeting', op);
      requireId(context, 'meetingId', meetingId);
      requireOneMember(context, student, { both: 'MEETING-016', neither: 'ENROLLMENT-001' });
      checkRating(context, rating ?? {});
      return this.#runner.run('rateMeeting', op, { meetingId, ...student, ...rating }, options);
    });
  }

  /**
   * Creates a coupon (type, percentage bounds and expiry order checked locally). The result leaves
   * the coupon's grants out; `{ includeGrants: true }` adds them (see {@link CouponCallOptions}).
   *
   * @example
   * ```ts
   * const coupon = await admin.createCoupon({ name: 'VIP', couponType: 'percentage', amount: 20, restricted: true });
   * ```
   */
  createCoupon(input: CouponInput, options: CouponCallOptions & { includeGrants: true }): AdminApiPromise<CouponWithGrants>;
  /** Without `includeGrants`: the coupon, its grants left out. */
  createCoupon(input: CouponInput, options?: CouponCallOptions & { includeGrants?: false }): AdminApiPromise<Coupon>;
  createCoupon(input: CouponInput, options?: CouponCallOptions): AdminApiPromise<Coupon | CouponWithGrants> {
    return startCall<Coupon | CouponWithGrants>(() => {
      const context = local('createCoupon', OPERATIONS.createCoupon);
      if (input === null || typeof input !== 'object') throw invalidInput(context, 'input', 'input must be an object');
      checkCoupon(context, input);
      const variables = { input: input as never };
      return options?.includeGrants === true
        ? this.#runner.run('createCoupon', COUPON_WITH_GRANTS.createCoupon, variables, options)
        : this.#runner.run('createCoupon', OPERATIONS.createCoupon, variables, options);
    });
  }

  /**
   * Updates a coupon; omitted fields keep their values (`code` and `restricted` cannot change). The
   * result leaves the coupon's grants out, so deactivating a coupon with 100,000 grants downloads
   * one coupon; `{ includeGrants: true }` adds them (see {@link CouponCallOptions}).
   *
   * @example
   * ```ts
   * await admin.updateCoupon(couponId, { active: false });
   * ```
   */
  updateCoupon(id: string, input: CouponUpdateInput, options: CouponCallOptions & { includeGrants: true }): AdminApiPromise<CouponWithGrants>;
  /** Without `includeGrants`: the coupon, its grants left out. */
  updateCoupon(id: string, input: CouponUpdateInput, options?: CouponCallOptions & { includeGrants?: false }): AdminApiPromise<Coupon>;
  updateCoupon(id: string, input: CouponUpdateInput, options?: CouponCallOptions): AdminApiPromise<Coupon | CouponWithGrants> {
    return startCall<Coupon | CouponWithGrants>(() => {
      const context = local('updateCoupon', OPERATIONS.updateCoupon);
      requireId(context, 'id', id);
      if (input === null || typeof input !== 'object') throw invalidInput(context, 'input', 'input must be an object');
      checkCoupon(context, input);
      const variables = { id, input: input as never };
      return options?.includeGrants === true
        ? this.#runner.run('updateCoupon', COUPON_WITH_GRANTS.updateCoupon, variables, options)
        : this.#runner.run('updateCoupon', OPERATIONS.updateCoupon, variables, options);
    });
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
  grantCoupon(couponId: string, member: MemberRef, options?: CallOptions): AdminApiPromise<GrantResult> {
    return startCall(() => {
      const op = OPERATIONS.createCouponGrant;
      const context = local('grantCoupon', op);
      requireId(context, 'couponId', couponId);
      requireOneMember(context, member, { both: 'COUPON-006', neither: 'COUPON-005' });
      return this.#runner.run('grantCoupon', op, { couponId, ...member }, options);
    });
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
   * the first grant is sent alone, so such an error costs one request, not a burst. A server that
   * cannot be reached stops the job the same way, with the `NetworkError` (`mayHaveReachedServer:
   * false`, naming `baseUrl`'s origin): when the first grant cannot connect (after its retries),
   * or when 5 grants in a row cannot once others went through. Rows not sent are not journaled, so
   * a resumed run sends them; the unreachable ones are journaled `failed` (temporary) and sent again.
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
    return grantCouponToMany(this, couponId, members, options, { budget, telemetry: this.#options.telemetry, events: this.#events, limiter: this.#wiring.limiter });
  }

  /**
   * Revokes a grant (COUPON-004 when unknown or already revoked); a redemption is not undone.
   *
   * @example
   * ```ts
   * const grant = await admin.revokeCouponGrant(grantId); // grant.status === 'revoked'
   * ```
   */
  revokeCouponGrant(grantId: string, options?: CallOptions): AdminApiPromise<RevokedCouponGrant> {
    return startCall(() => {
      const op = OPERATIONS.revokeCouponGrant;
      requireId(local('revokeCouponGrant', op), 'grantId', grantId);
      return this.#runner.run('revokeCouponGrant', op, { grantId }, options);
    });
  }

  /**
   * Sends any document (e.g. a query the typed methods do not cover) through the same pacing,
   * retries and error parsing; resolves to its `data`, as sent. For the rate-limit budget the
   * document is classified as the server does (a mutation when its text starts with `mutation`).
   * It is sent again after a failure that may have reached the server only when its text cannot
   * hold an operation that changes data (the name `mutation` or `subscription` appears nowhere in
   * it, comments and strings included), or with `{ idempotent: true }`. NaN, ±Infinity and
   * invalid Dates anywhere in `variables` are refused with `InvalidInputError` (JSON would silently
   * send them as `null`).
   *
   * @example
   * ```ts
   * const data = await admin.request<{ __typename: string }>('query { __typename }');
   * ```
   */
  request<TResult = Record<string, unknown>, TVariables extends object = Record<string, unknown>>(
    document: AnyDocument<TResult, TVariables>,
    variables?: TVariables,
    options: RequestOptions = {},
  ): AdminApiPromise<TResult> {
    return startCall(() => this.#runner.request(document, variables, options));
  }
}
