/**
 * `school-admin-sdk/testing`: a stateful simulator of the admin API for tests, demos and
 * benchmarks, with a loopback HTTP server. The msw handlers live in `school-admin-sdk/testing/msw`
 * so this entry works without msw installed.
 *
 * @example
 * ```ts
 * import { createSimulator, seedDemoSchool, startMockServer, DEMO_API_KEY } from 'school-admin-sdk/testing';
 * const simulator = createSimulator();
 * seedDemoSchool(simulator);
 * const server = await startMockServer({ simulator });
 * ```
 * @module school-admin-sdk/testing
 */
export { createSimulator, Simulator } from './simulator.js';
export type { SimulatorOptions, ResolvedSimulatorOptions, RateLimits, RateLimitRule, LatencyOptions, AuthOptions } from './options.js';
export { createManualClock, systemClock, type Clock, type ManualClock } from './clock.js';
export { startMockServer, type MockServer, type MockServerOptions } from './http/mock-server.js';
export { ADMIN_PATH, API_KEY_HEADER, REQUEST_ID_HEADER } from './http/request-pipeline.js';
export type { SimulatorRequest, SimulatorResponse } from './http/simulator-request.js';
export { classifyOperation, type OperationType } from './rate-limit/classify-operation.js';
export { ALL_SCOPES, type ApiKeyRecord } from './auth/api-keys.js';
export { MUTATION_SCOPES } from './auth/scopes.js';
export type { SimulatorStats, FieldStats, RequestLogEntry } from './observability/stats.js';
export type { MutationField } from './resolvers/root-value.js';
export { SchoolSeeder } from './seed/school-seeder.js';
export type * from './seed/seed-inputs.js';
export {
  seedDemoSchool,
  demoMemberEmail,
  DEMO_API_KEY,
  DEMO_IDS,
  DEMO_LICENCE_EMAILS,
  DEMO_DISCOUNT_CODE,
  DEMO_MEMBER_COUNT,
  DEMO_DELETED_MEMBER_NUMBERS,
  type DemoSchool,
} from './seed/demo-school.js';
export { SchoolModel, type SchoolTables, type SchoolProfile } from './model/school.js';
export type * from './model/records.js';
export { VideoPlatform, VideoPlatformError, type PlatformMeeting } from './model/video-platform.js';
export { reportedGrantStatus, type ReportedGrantStatus } from './model/coupon-rules.js';
export { CheckoutRefusedError, type CheckoutRequest } from './simulation/checkout.js';
export { VALID_OPTIONS_LIMIT, VALID_OPTIONS_TRUNCATION_TEXT } from './graphql/valid-options.js';
export type { SpecErrorCode } from './graphql/coded-error.js';
export { SUBSCRIPTION_MESSAGES } from './resolvers/subscriptions.js';
export { SERVICE_MESSAGES } from './resolvers/service-rules.js';
export { MEETING_MESSAGES } from './resolvers/meeting-hosting.js';
export { COUPON_MESSAGES } from './resolvers/coupon-rules.js';
