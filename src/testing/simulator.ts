import { setTimeout as sleep } from 'node:timers/promises';
import type { GraphQLSchema } from 'graphql';
import { ApiKeyRegistry } from './auth/api-keys.js';
import type { Clock } from './clock.js';
import { buildAdminSchema } from './graphql/admin-schema.js';
import { INTERNAL_ERROR_MESSAGE } from './graphql/format-errors.js';
import type { ResolverContext } from './graphql/resolver-context.js';
import { processRequest, REQUEST_ID_HEADER, type PipelineDeps } from './http/request-pipeline.js';
import { DocumentCache } from './graphql/document-cache.js';
import { errorResponse } from './http/responses.js';
import type { SimulatorRequest, SimulatorResponse } from './http/simulator-request.js';
import { IdGenerator } from './model/id-generator.js';
import type { EmailRecord, PaymentPaidWebhook } from './model/records.js';
import { SchoolModel, emptySchoolTables } from './model/school.js';
import { VideoPlatform } from './model/video-platform.js';
import { StatsRecorder, type RequestLogEntry, type SimulatorStats } from './observability/stats.js';
import { resolveSimulatorOptions, type ResolvedSimulatorOptions, type SimulatorOptions } from './options.js';
import { SlidingWindowCounter } from './rate-limit/sliding-window.js';
import { createRootValue, type MutationField } from './resolvers/root-value.js';
import { SchoolSeeder, type SeedEnvironment } from './seed/school-seeder.js';
import type { SchoolSeed } from './seed/seed-inputs.js';
import { checkout, type CheckoutRequest } from './simulation/checkout.js';

/** Mixed into `idSeed` for the request ids' own sequence. */
const REQUEST_ID_SEED = 0x5e9_1d5;

/** Thrown by an injected fault; the executor reports it as GENERAL-001. */
class InjectedFault extends Error {}

/**
 * The stateful simulator of the admin API: an in-memory model of schools, the documented rules
 * executed by graphql-js against graphql/schema.graphql, API keys with scopes, and the per-key
 * sliding-window rate limits. Transport-agnostic: the msw handlers and the loopback server both
 * call {@link Simulator.handle}.
 */
export class Simulator {
  /** The resolved options (every default applied). */
  readonly options: ResolvedSimulatorOptions;
  /** The external video platform: provisioned meetings, and `failNextProvisioning()`. */
  readonly videoPlatform: VideoPlatform;
  private readonly ids: IdGenerator;
  /** Apart from `ids`, so answering requests never shifts the ids of the model's records. */
  private readonly requestIds: IdGenerator;
  private readonly keys = new ApiKeyRegistry();
  private readonly counter = new SlidingWindowCounter();
  private readonly recorder: StatsRecorder;
  private readonly schema: GraphQLSchema;
  private readonly schoolsById = new Map<string, SchoolModel>();
  private readonly faults = new Map<string, number>();
  private readonly deps: PipelineDeps;

  constructor(options: SimulatorOptions = {}) {
    this.options = resolveSimulatorOptions(options);
    this.ids = new IdGenerator(this.options.idSeed);
    this.requestIds = new IdGenerator(this.options.idSeed ^ REQUEST_ID_SEED);
    this.videoPlatform = new VideoPlatform(this.ids);
    this.recorder = new StatsRecorder(this.options.requestLogSize);
    this.schema = buildAdminSchema({ currentPeriodEndAsString: this.options.currentPeriodEndAsString });
    this.deps = {
      options: this.options,
      counter: this.counter,
      keys: this.keys,
      stats: this.recorder,
      schema: this.schema,
      documents: new DocumentCache(this.schema),
      rootValue: createRootValue((field) => this.beforeExecute(field)),
      contextFor: (key, nowMs) => this.contextFor(key.schoolId, nowMs),
    };
  }

  /** The time source. */
  get clock(): Clock {
    return this.options.clock;
  }

  /**
   * Answers one HTTP request: `POST /admin/graphql` with a GraphQL JSON body and the
   * `X-Service-API-Key` header. Never rejects. Every answer carries a fresh id in
   * {@link REQUEST_ID_HEADER} (`x-request-id`), as gateways add one (the spec names none); the
   * request log records it.
   */
  async handle(request: SimulatorRequest): Promise<SimulatorResponse> {
    const before = this.options.latency.beforeArrivalMs?.() ?? 0;
    if (before > 0) await sleep(before);
    const arrivedAt = this.clock.now();
    const requestId = this.requestIds.uuid();
    let response: SimulatorResponse;
    try {
      const outcome = processRequest(this.deps, request, arrivedAt);
      response = outcome.response;
      this.recorder.answered({ arrivedAt, operationType: outcome.type, fields: outcome.fields, status: response.status, apiKeyId: outcome.apiKeyId, requestId });
    } catch {
      response = errorResponse(500, INTERNAL_ERROR_MESSAGE, { code: 'GENERAL-001' });
    }
    response = { ...response, headers: { ...response.headers, [REQUEST_ID_HEADER]: requestId } };
    const after = this.options.latency.afterHandlingMs?.() ?? 0;
    if (after > 0) await sleep(after);
    return response;
  }

  /** Adds a school (with its owner) and returns its seeder. */
  addSchool(seed: SchoolSeed = {}): SchoolSeeder {
    const id = seed.id ?? this.ids.uuid();
    if (this.schoolsById.has(id)) throw new Error(`Failed to add school: id ${id} is taken. Use another id.`);
    const profile = {
      name: seed.name ?? `School ${this.schoolsById.size + 1}`,
      currency: seed.currency ?? 'USD',
      timezone: seed.timezone ?? 'UTC',
      ownerId: '',
    };
    const school = new SchoolModel(id, emptySchoolTables(profile));
    this.schoolsById.set(id, school);
    const seeder = this.seeder(id);
    seeder.addOwner(seed.owner);
    return seeder;
  }

  /** The seeder of an existing school, to add more data. */
  seeder(schoolId: string): SchoolSeeder {
    const env: SeedEnvironment = { ids: this.ids, now: () => this.nowSeconds(), videoPlatform: this.videoPlatform, keys: this.keys };
    return new SchoolSeeder(this.school(schoolId), env);
  }

  /** A school's model for assertions (live records: read, do not write). Default: the first school. */
  school(schoolId?: string): SchoolModel {
    const school = schoolId === undefined ? this.schoolsById.values().next().value : this.schoolsById.get(schoolId);
    if (!school) throw new Error(`Failed to find school ${schoolId ?? '(first)'}: it was not added. Call addSchool() first.`);
    return school;
  }

  /** Every school, in the order they were added. */
  schools(): SchoolModel[] {
    return [...this.schoolsById.values()];
  }

  /** Counters of arrivals, executions, 429s, refusals and coded errors. */
  stats(): SimulatorStats {
    return this.recorder.snapshot();
  }

  /** The most recent requests (at most `requestLogSize`), oldest first. */
  requestLog(): RequestLogEntry[] {
    return this.recorder.log();
  }

  /** Zeroes {@link Simulator.stats} and empties {@link Simulator.requestLog} (rate-limit windows stay). */
  resetStats(): void {
    this.recorder.reset();
  }

  /** Emails the service would have sent (rating notifications), of one school or all. */
  outbox(schoolId?: string): EmailRecord[] {
    return this.pick(schoolId).flatMap((school) => school.tables.outbox);
  }

  /** `payment.paid` payloads produced by {@link Simulator.checkout}, of one school or all. */
  webhooks(schoolId?: string): PaymentPaidWebhook[] {
    return this.pick(schoolId).flatMap((school) => school.tables.webhooks);
  }

  /** Simulates a signed-in member paying with a coupon code at checkout (see `checkout`). */
  checkout(request: CheckoutRequest & { schoolId?: string }): PaymentPaidWebhook {
    const school = request.schoolId ? this.school(request.schoolId) : this.schoolHolding((s) => s.tables.users.has(request.userId), 'user');
    return checkout(school, this.ids, this.nowSeconds(), request);
  }

  /** Simulates the grant's member redeeming it at checkout; returns the `payment.paid` payload. */
  redeemGrant(grantId: string): PaymentPaidWebhook {
    const school = this.schoolHolding((s) => s.tables.grants.has(grantId), 'grant');
    const grant = school.tables.grants.get(grantId);
    const coupon = grant ? school.tables.coupons.get(grant.couponId) : undefined;
    if (!grant || !coupon) throw new Error(`Failed to redeem grant ${grantId}: its coupon is missing.`);
    return checkout(school, this.ids, this.nowSeconds(), { userId: grant.userId, couponCode: coupon.code });
  }

  /** Deletes a user's account (members and staff alike): it becomes "not found" everywhere. */
  deleteUser(userId: string): void {
    const school = this.schoolHolding((s) => s.tables.users.has(userId), 'user');
    const user = school.tables.users.get(userId);
    if (user && user.deletedAt === null) user.deletedAt = this.nowSeconds();
  }

  /** Switches a school's video-platform integration on or off. */
  setVideoIntegrationActive(schoolId: string, active: boolean): void {
    this.school(schoolId).tables.integration.active = active;
  }

  /** Makes the next `times` executions of a mutation fail unexpectedly (answered as GENERAL-001). */
  failNextExecution(field: MutationField, times = 1): void {
    this.faults.set(field, (this.faults.get(field) ?? 0) + times);
  }

  private beforeExecute(field: string): void {
    this.recorder.execution(field);
    const pending = this.faults.get(field) ?? 0;
    if (pending > 0) {
      this.faults.set(field, pending - 1);
      throw new InjectedFault(`injected fault in ${field}`);
    }
  }

  private contextFor(schoolId: string, nowMs: number): ResolverContext | undefined {
    const school = this.schoolsById.get(schoolId);
    if (!school) return undefined;
    return { school, now: Math.floor(nowMs / 1000), ids: this.ids, videoPlatform: this.videoPlatform };
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  private pick(schoolId: string | undefined): SchoolModel[] {
    return schoolId === undefined ? this.schools() : [this.school(schoolId)];
  }

  private schoolHolding(test: (school: SchoolModel) => boolean, what: string): SchoolModel {
    const school = this.schools().find(test);
    if (!school) throw new Error(`Failed to find the ${what}: no school of this simulator holds it.`);
    return school;
  }
}

/**
 * Creates a simulator. Add schools with `addSchool()` or `seedDemoSchool()`.
 *
 * @example
 * ```ts
 * const sim = createSimulator({ clock: createManualClock(Date.UTC(2026, 10, 22)) });
 * const demo = seedDemoSchool(sim);
 * const response = await sim.handle({ method: 'POST', path: '/admin/graphql',
 *   headers: { 'X-Service-API-Key': DEMO_API_KEY }, body: JSON.stringify({ query }) });
 * ```
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return new Simulator(options);
}
