/**
 * school-admin-sdk: the typed client of the school platform's admin GraphQL API.
 *
 * @example
 * ```ts
 * import { AdminClient, CodedError, hasCode } from 'school-admin-sdk';
 * const admin = new AdminClient(); // apiKey and baseUrl from ADMIN_API_KEY and ADMIN_API_URL
 * ```
 * @module school-admin-sdk
 */
export { AdminClient } from './client/facade/admin-client.js';
export { AdminApiPromise, type WithResponse } from './client/facade/api-promise.js';
export type { CallResponse, ResponseHeaders, ResponseMetadata } from './response/response-metadata.js';
export type {
  CallEvent,
  ClientEventListener,
  ClientEventMap,
  PermitWait,
  RateLimitedEvent,
  RequestEvent,
  ResponseEvent,
  RetryEvent,
  WaitingEvent,
  WaitReason,
} from './client/events/client-events.js';
export type { ClientOverrides } from './client/facade/derive-options.js';
export { DEFAULTS, type AdminClientOptions, type Logger, type LogLevel, type PacingOptions, type RateLimitBudget } from './client/options/options.js';
export { PUBLIC_OPERATIONS as OPERATIONS, type OperationName, type OperationSummary, type RetrySafety } from './client/facade/operations.js';
export type * from './client/types/types.js';
export { SDK_VERSION } from './client/options/version.js';

export { AdminApiError, type AdminApiErrorOptions, type Ran } from './errors/admin-api-error.js';
export { AuthenticationError, type AuthenticationErrorOptions } from './errors/authentication-error.js';
export { BulkChunkError, type BulkChunkErrorOptions, type BulkChunkFate, type FailedChunk, type IndexedBulkRow, type RowRange } from './errors/bulk-chunk-error.js';
export { CodedError, type CodedErrorOptions } from './errors/coded-error.js';
export { DependencyLoadError, type DependencyLoadErrorOptions } from './errors/dependency-load-error.js';
export { ERROR_CODES, describeErrorCode, type ErrorCode, type ErrorCodeInfo } from './errors/error-codes.js';
export { findErrorCode } from './errors/error-code-in-text.js';
export { GraphQLRequestError, type GraphQLRequestErrorOptions, type MissingField } from './errors/graphql-request-error.js';
export {
  GraphQLResponseError,
  type GraphQLErrorDetail,
  type GraphQLErrorLocation,
  type GraphQLResponseErrorOptions,
} from './errors/graphql-response-error.js';
export { hasCode, type CodedWith, type KnownCode } from './errors/has-code.js';
export { HttpError, type HttpErrorOptions } from './errors/http-error.js';
export { InvalidInputError, type InvalidInputErrorOptions } from './errors/invalid-input-error.js';
export { InvalidResponseError, type InvalidResponseErrorOptions, type InvalidResponseProblem } from './errors/invalid-response-error.js';
export { NetworkError, type NetworkErrorOptions } from './errors/network-error.js';
export { PayloadError, type PayloadErrorOptions } from './errors/payload-error.js';
export { RateLimitError, type RateLimitErrorOptions } from './errors/rate-limit-error.js';
export { RedirectError, type RedirectErrorOptions } from './errors/redirect-error.js';
export { parseRowError } from './errors/row-error.js';
export { SUBSCRIPTION_UPDATE_REASONS, subscriptionUpdateReason, type SubscriptionUpdateReason } from './errors/subscription-update-reason.js';
export { TimeoutError, type TimeoutErrorOptions } from './errors/timeout-error.js';
export { parseValidOptions, type ValidOptionsHint } from './errors/valid-options.js';

export { bucketName, type RateLimitedOperationType } from './rate-limit/bucket-name.js';
export { MemoryPermitStore, type MemoryPermitStoreOptions } from './rate-limit/memory-permit-store.js';
export type { AcquireRequest, AcquireResult, EarlierSend, PermitStore } from './rate-limit/permit-store.js';
export { operationTypeOf } from './rate-limit/operation-type.js';
export type { BudgetInForce, BudgetSource } from './rate-limit/limiter.js';
export { parseRetryAfter } from './retry/retry-after.js';

export type {
  GrantAlreadyHeldOutcome,
  GrantCreatedOutcome,
  GrantFailedOutcome,
  GrantFailure,
  GrantInvalidOutcome,
  GrantMemberRow,
  GrantMemberSource,
  GrantOutcome,
  GrantOutcomeCounts,
  GrantOutcomeKind,
  GrantProgress,
  GrantSkippedOutcome,
  GrantToManyOptions,
  GrantToManySummary,
  InvalidMemberReason,
} from './workflows/grant-to-many/types.js';
export type { JournalRecovery } from './workflows/journal/scan-journal.js';
export { JournalCorruptedError, type JournalCorruptionReason } from './workflows/journal/errors/journal-corrupted-error.js';
export { JournalMismatchError } from './workflows/journal/errors/journal-mismatch-error.js';
export { JournalIoError } from './workflows/journal/errors/journal-io-error.js';
export { JournalClosedError } from './workflows/journal/errors/journal-closed-error.js';
export { JournalLockedError, type JournalLockedReason, type JournalLockHolder } from './workflows/journal/errors/journal-locked-error.js';
