import { InvalidResponseError } from '../errors/invalid-response-error.js';
import { Redactor } from '../errors/redactor.js';
import { bucketName } from '../rate-limit/bucket-name.js';
import { RateLimiter } from '../rate-limit/limiter.js';
import { sharedMemoryStore } from '../rate-limit/shared-memory-store.js';
import { errorBase, type ErrorContext } from '../response/error-context.js';
import { isObject } from '../response/graphql-errors.js';
import type { AnsweredAttempt } from '../response/response-metadata.js';
import { retrySafetyOfDocument } from '../retry/document-retry-safety.js';
import { GraphQLTransport } from '../transport/graphql-transport.js';
import { invalidInput, type LocalContext } from '../validation/local-errors.js';
import { checkAnyVariables, checkOperationVariables, type VariableNames } from '../validation/variable-rules.js';
import { mergeBulkResults } from './bulk-result.js';
import { bulkChunkError } from './chunk-failure.js';
import type { CallAnswer } from './api-promise.js';
import { newCallId } from './call-id.js';
import { resolveCallSettings } from './call-settings.js';
import type { ClientEvents } from './client-events.js';
import { documentText } from './document-text.js';
import { normalizeIntegers } from './normalize-integers.js';
import type { OperationDefinition } from './operations.js';
import { RequestPipeline } from './pipeline.js';
import type { ResolvedClientOptions } from './resolve-options.js';
import type { AnyDocument, BulkOptions, BulkResult, CallOptions, RequestOptions } from './types.js';
import { SDK_VERSION } from './version.js';

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
  const limiter =
    options.pacing === false
      ? undefined
      : new RateLimiter({
          store: options.pacing.store ?? sharedMemoryStore(),
          buckets: { mutations: bucketName(options.apiKey, 'mutations'), queries: bucketName(options.apiKey, 'queries') },
          budgets: {
            mutations: { ...options.pacing.mutations, limitIsCeiling: options.pacing.configuredLimits.mutations },
            queries: { ...options.pacing.queries, limitIsCeiling: options.pacing.configuredLimits.queries },
          },
          leaseMs: options.pacing.leaseMs,
          interactiveReserve: options.pacing.interactiveReserve,
          waitingThresholdMs: options.pacing.waitingThresholdMs,
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
   * where the method's parameters are named otherwise (`{ inputs: 'rows' }`).
   */
  async run<TData, TVariables extends object, TResult>(
    method: string,
    op: OperationDefinition<TData, TVariables, TResult>,
    variables: TVariables,
    options: CallOptions | undefined,
    names?: VariableNames,
  ): Promise<CallAnswer<TResult>> {
    const local: LocalContext = { operation: method, label: op.label };
    const checked = checkOperationVariables(local, op.field, variables, names);
    const settings = resolveCallSettings(this.#options, options, local);
    const context = this.#context(method, op.label, variables);
    const { data, response } = await this.#pipeline.run(
      {
        ...settings,
        priority: settings.priority ?? (BACKGROUND_BY_DEFAULT.has(op.field) ? 'background' : 'interactive'),
        operation: method,
        callId: context.callId,
        label: op.label,
        document: op.document,
        variables: checked,
        retry: op.retry,
        ...(op.subscriptionReasons === true ? { subscriptionReasons: true } : {}),
      },
      context,
    );
    // Errors found in the answer come with its response.
    const answered: ErrorContext = { ...context, response };
    // Every operation's payload is an object (the schema's payload types); anything else is a broken answer.
    if (!isObject(data[op.field])) throw missingPayload(answered);
    return { data: op.unwrap(normalizeIntegers(data, answered) as TData, answered), response };
  }

  /**
   * Runs any document. A document whose only operation is a query is safe to repeat; anything
   * else (a mutation however it is written, several operations, a document that does not parse)
   * only when the caller says so.
   */
  async request<TResult, TVariables extends object>(
    document: AnyDocument<TResult, TVariables>,
    variables: TVariables | undefined,
    options: RequestOptions,
  ): Promise<CallAnswer<TResult>> {
    const text = documentText(document);
    const local: LocalContext = { operation: 'request', label: 'run the request' };
    const context = this.#context(local.operation, local.label, variables);
    const safe = options.idempotent === true || retrySafetyOfDocument(text) === 'idempotent';
    if (variables !== undefined && variables !== null) checkAnyVariables(local, variables);
    const settings = resolveCallSettings(this.#options, options, local);
    const { data, response } = await this.#pipeline.run(
      {
        ...settings,
        operation: 'request',
        callId: context.callId,
        label: context.label,
        document: text,
        ...(variables === undefined ? {} : { variables }),
        retry: safe ? 'idempotent' : 'unsafe',
      },
      context,
    );
    // No schema for an arbitrary document: its data goes as sent, but never with an Infinity in it.
    return { data: normalizeIntegers(data, { ...context, response }, NO_FIELDS) as TResult, response };
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
    const parts: BulkResult[] = [];
    let response: AnsweredAttempt | undefined;
    const chunks = Math.ceil(items.length / size);
    for (let start = 0; start < items.length; start += size) {
      const end = Math.min(start + size, items.length);
      try {
        const answer = await this.run(method, op, variablesOf(items.slice(start, end)), options, names);
        parts.push(answer.data);
        response = answer.response;
      } catch (error) {
        // What finished, what failed and what was never sent: the caller can resume without duplicates.
        throw bulkChunkError(context, new Redactor([this.#options.apiKey]), { finished: parts, start, end, total: items.length, chunk: parts.length + 1, chunks }, error);
      }
    }
    return { data: mergeBulkResults(parts), response };
  }

  /** A new call's error context: its id, and a redactor that knows the key and the call's variables. */
  #context(operation: string, label: string, variables: unknown): ErrorContext & { callId: string } {
    return { operation, label, redactor: new Redactor([this.#options.apiKey], variables), callId: newCallId() };
  }
}

const NO_FIELDS: ReadonlySet<string> = new Set();

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
  const runtime = typeof process === 'object' && typeof process.version === 'string' ? ` node/${process.version}` : '';
  return `school-admin-sdk/${SDK_VERSION}${runtime}${suffix === undefined ? '' : ` ${suffix}`}`;
}
