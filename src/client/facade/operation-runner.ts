import { DEFAULTS } from '../options/options.js';
import { InvalidResponseError } from '../../errors/invalid-response-error.js';
import { Redactor } from '../../errors/redactor.js';
import { bucketNames } from '../../rate-limit/bucket-name.js';
import { RateLimiter } from '../../rate-limit/limiter.js';
import { sharedMemoryStore } from '../../rate-limit/shared-memory-store.js';
import { errorBase, type ErrorContext } from '../../response/error-context.js';
import { isObject } from '../../response/graphql-errors.js';
import type { AnsweredAttempt } from '../../response/response-metadata.js';
import { retrySafetyOfDocument } from '../../retry/document-retry-safety.js';
import { GraphQLTransport } from '../../transport/graphql-transport.js';
import { invalidInput, type LocalContext } from '../../validation/local-errors.js';
import { checkAnyVariables, checkOperationVariables, type VariableNames } from '../../validation/variable-rules.js';
import { mergeBulkResults } from './bulk-result.js';
import { bulkChunkError } from './chunk-failure.js';
import type { CallAnswer } from './api-promise.js';
import { newCallId } from '../pipeline/call-id.js';
import { resolveCallSettings, type CallSettings } from '../pipeline/call-settings.js';
import { perType } from '../options/resolve-options.js';
import type { ClientEvents } from '../events/client-events.js';
import { telemetry } from '../events/telemetry.js';
import { documentText, REQUEST_CONTEXT } from '../pipeline/document-text.js';
import { normalizeIntegers } from '../pipeline/normalize-integers.js';
import type { OperationDefinition, RetrySafety } from './operations.js';
import { RequestPipeline, type CallProgress, type PipelineAnswer, type PipelineCall } from '../pipeline/pipeline.js';
import type { ResolvedClientOptions } from '../options/resolve-options.js';
import type { AnyDocument, BulkOptions, BulkResult, CallOptions, Priority, RequestOptions } from '../types/types.js';
import { SDK_VERSION } from '../options/version.js';

/**
 * What a client and every client derived from it (`withOptions`) share: one transport (key,
 * server, fetch) and one limiter (one budget, one queue, one adapted limit).
 */
export interface ClientWiring {
  transport: GraphQLTransport;
  limiter: RateLimiter | undefined;
}

/** The transport and limiter of a new client. */
export function wireClient(options: ResolvedClientOptions): ClientWiring {
  const transport = new GraphQLTransport({
    endpoint: options.endpoint,
    headers: { 'X-Service-API-Key': options.apiKey, 'User-Agent': userAgent(options.userAgentSuffix) },
    fetch: options.fetch,
    maxResponseBytes: options.maxResponseBytes,
  });
  const { pacing } = options;
  if (pacing === false) return { transport, limiter: undefined };
  const { mutations, queries, configuredLimits, configuredWindows } = pacing;
  // Plain literals, not spreads of the resolved budgets: a spread object gets a hidden class of its
  // own in V8 (about 0.2 KB more per client), and a process may hold a client per school.
  const limiter = new RateLimiter({
    store: pacing.store ?? sharedMemoryStore(options.endpoint),
    buckets: bucketNames(options.apiKey),
    budgets: {
      mutations: { limit: mutations.limit, windowMs: mutations.windowMs, limitIsCeiling: configuredLimits.mutations, windowIsFloor: configuredWindows.mutations },
      queries: { limit: queries.limit, windowMs: queries.windowMs, limitIsCeiling: configuredLimits.queries, windowIsFloor: configuredWindows.queries },
    },
    defaultBudgets: perType(!configuredLimits.mutations && !configuredWindows.mutations, !configuredLimits.queries && !configuredWindows.queries),
    leaseMs: pacing.leaseMs,
    interactiveReserve: pacing.interactiveReserve,
    reserveShare: DEFAULTS.interactiveReserveShare,
    rampShare: DEFAULTS.bulkRampShare,
    waitingThresholdMs: pacing.waitingThresholdMs,
  });
  return { transport, limiter };
}

/**
 * What every AdminClient method shares: the pipeline of one set of options over the client's
 * wiring, and running a row of the operations table (or any document) through it.
 */
export class OperationRunner {
  readonly #options: ResolvedClientOptions;
  readonly #pipeline: RequestPipeline;

  constructor(options: ResolvedClientOptions, wiring: ClientWiring, events: ClientEvents) {
    this.#options = options;
    this.#pipeline = new RequestPipeline(options, wiring.transport, wiring.limiter, events);
  }

  /**
   * Runs one documented operation and unwraps its payload into the method's result. Its variables
   * are checked against the schema's types first (Dates become Unix seconds): a bad number is an
   * `InvalidInputError` before anything is paced or sent. `names` renames variables in messages
   * where the method's parameters are named otherwise (`{ inputs: 'rows' }`); `progress` is told
   * whether the call's request left.
   */
  run<TData, TVariables extends object, TResult>(
    method: string,
    op: OperationDefinition<TData, TVariables, TResult>,
    variables: TVariables,
    options: CallOptions | undefined,
    names?: VariableNames,
    progress?: CallProgress,
  ): Promise<CallAnswer<TResult>> {
    const local: LocalContext = { operation: method, label: op.label };
    const checked = checkOperationVariables(local, op.field, variables, names);
    const settings = resolveCallSettings(this.#options, options, local);
    const priority = settings.priority ?? (BACKGROUND_BY_DEFAULT.has(op.field) ? 'background' : 'interactive');
    const call = pipelineCall(settings, priority, method, op.label, { document: op.document, variables: checked, operationName: undefined, callerDocument: false }, op.retry, op.subscriptionReasons === true, progress);
    // Not awaited: a call waiting for its permit keeps no suspended function here, and the
    // operation's finisher is made once, not per call.
    return this.#pipeline.run(call, finisherOf(op));
  }

  /**
   * Runs any document. A document whose text cannot hold an operation that changes data (the name
   * `mutation` or `subscription` appears nowhere in it) is safe to repeat; anything else only when
   * the caller says so.
   */
  request<TResult, TVariables extends object>(
    document: AnyDocument<TResult, TVariables>,
    variables: TVariables | undefined,
    options: RequestOptions,
  ): Promise<CallAnswer<TResult>> {
    const text = documentText(document);
    const local = REQUEST_CONTEXT;
    const operationName = checkOperationName(local, options.operationName);
    const safe = options.idempotent === true || retrySafetyOfDocument(text) === 'idempotent';
    if (variables !== undefined && variables !== null) checkAnyVariables(local, variables);
    const settings = resolveCallSettings(this.#options, options, local);
    const call = pipelineCall(settings, settings.priority, local.operation, local.label, { document: text, variables, operationName, callerDocument: true }, safe ? 'idempotent' : 'unsafe', false, undefined);
    return this.#pipeline.run(call, finishRequest<TResult>);
  }

  /**
   * Sends bulk rows in chunks of `bulkChunkSize`, one after the other, and joins the results in
   * input order; an atomic batch cannot be split and is refused before sending. Every row is
   * checked before the first chunk goes, so a bad row in a later chunk sends nothing. When a
   * chunk's call fails the error is a `BulkChunkError` (what finished, what failed, what was never
   * sent); an input of one chunk fails with the call's own error. The response is the last chunk's
   * (none for an empty input: nothing is sent).
   */
  async chunked<TData, TVariables extends object>(
    method: string,
    op: OperationDefinition<TData, TVariables, BulkResult>,
    items: readonly unknown[],
    variablesOf: (chunk: unknown[]) => TVariables,
    options: BulkOptions,
    names?: VariableNames,
  ): Promise<CallAnswer<BulkResult>> {
    const context: LocalContext = { operation: method, label: op.label };
    const size = this.#options.bulkChunkSize;
    // The call's options hold for every chunk: a bad one is refused before the first is sent.
    resolveCallSettings(this.#options, options, context);
    if (items.length === 0) return { data: { allSucceeded: true, errors: [], results: [] }, response: undefined };
    if (items.length <= size) return this.run(method, op, variablesOf([...items]), options, names);
    if (options.atomic === true) {
      throw invalidInput(context, 'atomic', `an atomic batch of ${items.length} rows cannot be split into chunks of ${size} (bulkChunkSize); send at most ${size} rows or use atomic: false`);
    }
    checkOperationVariables(context, op.field, variablesOf([...items]), names);
    const send = async (): Promise<CallAnswer<BulkResult>> => {
      const parts: BulkResult[] = [];
      let response: AnsweredAttempt | undefined;
      const chunks = Math.ceil(items.length / size);
      for (let start = 0; start < items.length; start += size) {
        const end = Math.min(start + size, items.length);
        const progress: CallProgress = { sent: 0 };
        try {
          const answer = await this.run(method, op, variablesOf(items.slice(start, end)), options, names, progress);
          parts.push(answer.data);
          response = answer.response;
        } catch (error) {
          // What finished, what failed and what was never sent: the caller can resume without duplicates.
          const failure = { finished: parts, start, end, total: items.length, chunk: parts.length + 1, chunks, sent: progress.sent > 0 };
          throw bulkChunkError(context, new Redactor([this.#options.apiKey]), failure, error);
        }
      }
      return { data: mergeBulkResults(parts), response };
    };
    // One span for the job, its chunks' calls under it (school-admin-sdk/otel).
    const observer = this.#options.telemetry ? telemetry() : undefined;
    return observer === undefined ? send() : observer.job({ operation: method, rows: items.length }, send);
  }
}

/** What a call sends, and who wrote the document. */
interface CallRequest {
  document: string;
  variables: object | undefined;
  operationName: string | undefined;
  /** True for `request()`. */
  callerDocument: boolean;
}

/**
 * One call's settings for the pipeline, built as one literal of a fixed shape: thousands may wait
 * in the queue, and a spread of the settings would give each of them a hidden class of its own
 * (about 0.4 KB more per waiting call, measured with bench/queue.ts).
 */
function pipelineCall(
  settings: CallSettings,
  priority: Priority | undefined,
  operation: string,
  label: string,
  request: CallRequest,
  retry: RetrySafety,
  subscriptionReasons: boolean,
  progress: CallProgress | undefined,
): PipelineCall {
  return {
    signal: settings.signal,
    timeoutMs: settings.timeoutMs,
    maxRetries: settings.maxRetries,
    headers: settings.headers,
    priority,
    operation,
    callId: newCallId(),
    label,
    document: request.document,
    variables: request.variables,
    operationName: request.operationName,
    callerDocument: request.callerDocument,
    retry,
    subscriptionReasons,
    progress,
  };
}

/** `request()`'s `operationName`: a GraphQL name, or undefined (JavaScript callers have no compiler to stop them). */
function checkOperationName(context: LocalContext, name: unknown): string | undefined {
  if (name === undefined) return undefined;
  if (typeof name !== 'string' || !GRAPHQL_NAME.test(name)) {
    throw invalidInput(context, 'operationName', 'operationName must be the name of one of the document\'s operations (a GraphQL name such as "ListGrants")');
  }
  return name;
}

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

const NO_FIELDS: ReadonlySet<string> = new Set();

type Finisher<TResult> = (answer: PipelineAnswer) => CallAnswer<TResult>;

/**
 * One finisher per row of the operations table (a function of the row alone, whatever the
 * client's options): a per-call closure would be kept by every call waiting for its permit.
 */
const finishers = new WeakMap<object, Finisher<unknown>>();

/** How an answer of `op` becomes the method's result: its payload checked and unwrapped. */
function finisherOf<TData, TVariables extends object, TResult>(op: OperationDefinition<TData, TVariables, TResult>): Finisher<TResult> {
  let finish = finishers.get(op) as Finisher<TResult> | undefined;
  if (finish === undefined) {
    finish = ({ data, context, variables }) => {
      // Every operation's payload is an object (the schema's payload types); anything else is a broken answer.
      if (!isObject(data[op.field])) throw missingPayload(context);
      return { data: op.unwrap(normalizeIntegers(data, context) as TData, context, variables as TVariables), response: context.response };
    };
    finishers.set(op, finish);
  }
  return finish;
}

/** No schema for an arbitrary document: its data goes as sent, but never with an Infinity in it. */
function finishRequest<TResult>({ data, context }: PipelineAnswer): CallAnswer<TResult> {
  return { data: normalizeIntegers(data, context, NO_FIELDS) as TResult, response: context.response };
}

function missingPayload(context: ErrorContext): InvalidResponseError {
  return new InvalidResponseError(`Failed to ${context.label}: the response has no payload for the operation.`, {
    ...errorBase(context),
    status: context.response?.status ?? 200,
    problem: 'missing_payload',
  });
}

/** Bulk operations wait as background work unless the caller (or the client) says otherwise: the CLI's jobs use them. */
const BACKGROUND_BY_DEFAULT: ReadonlySet<string> = new Set(['bulkCreateConsultingMeetings', 'bulkCancelConsultingMeetings']);

function userAgent(suffix: string | undefined): string {
  return suffix === undefined ? SDK_USER_AGENT : `${SDK_USER_AGENT} ${suffix}`;
}

/** The SDK's own User-Agent: one string for every client of the process (thousands may be made). */
const SDK_USER_AGENT = [`school-admin-sdk/${SDK_VERSION}`, typeof process === 'object' && typeof process.version === 'string' ? ` node/${process.version}` : ''].join('');
