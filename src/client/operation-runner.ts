import { print } from 'graphql';
import { Redactor } from '../errors/redactor.js';
import { bucketName } from '../rate-limit/bucket-name.js';
import { RateLimiter } from '../rate-limit/limiter.js';
import { operationTypeOf } from '../rate-limit/operation-type.js';
import { PRIORITIES, type Priority } from '../rate-limit/priority.js';
import { sharedMemoryStore } from '../rate-limit/shared-memory-store.js';
import type { ErrorContext } from '../response/error-context.js';
import { GraphQLTransport } from '../transport/graphql-transport.js';
import { invalidInput, type LocalContext } from '../validation/local-errors.js';
import { mergeBulkResults } from './bulk-result.js';
import type { ClientEvents } from './client-events.js';
import { normalizeIntegers } from './normalize-integers.js';
import type { OperationDefinition } from './operations.js';
import { RequestPipeline } from './pipeline.js';
import type { ResolvedClientOptions } from './resolve-options.js';
import type { AnyDocument, BulkResult, CallOptions, RequestOptions } from './types.js';
import { SDK_VERSION } from './version.js';

/**
 * What every AdminClient method shares: the wiring of transport, limiter and pipeline for one set
 * of options, and running a row of the operations table (or any document) through it.
 */
export class OperationRunner {
  readonly #options: ResolvedClientOptions;
  readonly #pipeline: RequestPipeline;

  constructor(options: ResolvedClientOptions, events: ClientEvents) {
    this.#options = options;
    const transport = new GraphQLTransport({
      endpoint: options.endpoint,
      headers: { 'X-Service-API-Key': options.apiKey, 'User-Agent': userAgent(options.userAgentSuffix) },
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
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
    this.#pipeline = new RequestPipeline(options, transport, limiter, events);
  }

  /** Runs one documented operation and unwraps its payload into the method's result. */
  async run<TData, TVariables extends object, TResult>(
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
        priority: priorityOf(options, BACKGROUND_BY_DEFAULT.has(op.field) ? 'background' : 'interactive', context),
      },
      context,
    );
    return op.unwrap(normalizeIntegers(data) as TData, context);
  }

  /** Runs any document; queries are safe to repeat, mutations only when the caller says so. */
  async request<TResult, TVariables extends object>(
    document: AnyDocument<TResult, TVariables>,
    variables: TVariables | undefined,
    options: RequestOptions,
  ): Promise<TResult> {
    const text = typeof document === 'object' && 'kind' in document ? print(document) : String(document);
    const context = this.#context('request', 'run the request', variables);
    const safe = operationTypeOf(text) === 'queries' || options.idempotent === true;
    const data = await this.#pipeline.run(
      {
        operation: 'request',
        label: context.label,
        document: text,
        ...(variables === undefined ? {} : { variables }),
        retry: safe ? 'idempotent' : 'unsafe',
        ...signalOf(options),
        priority: priorityOf(options, 'interactive', context),
      },
      context,
    );
    return data as TResult;
  }

  /**
   * Sends bulk rows in chunks of `bulkChunkSize`, one after the other, and joins the results in
   * input order; an atomic batch cannot be split and is refused before sending.
   */
  async chunked<T>(context: LocalContext, items: T[], atomic: boolean, send: (chunk: T[]) => Promise<BulkResult>): Promise<BulkResult> {
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

/** Bulk operations wait as background work unless the caller says otherwise (the CLI's jobs use them). */
const BACKGROUND_BY_DEFAULT: ReadonlySet<string> = new Set(['bulkCreateConsultingMeetings', 'bulkCancelConsultingMeetings']);

function priorityOf(options: CallOptions | undefined, fallback: Priority, context: ErrorContext): Priority {
  const priority = options?.priority;
  if (priority === undefined) return fallback;
  if (!PRIORITIES.includes(priority)) throw invalidInput(context, 'priority', "priority must be 'interactive' or 'background'");
  return priority;
}

function signalOf(options: CallOptions | undefined): { signal?: AbortSignal } {
  return options?.signal === undefined ? {} : { signal: options.signal };
}

function userAgent(suffix: string | undefined): string {
  const runtime = typeof process === 'object' && typeof process.version === 'string' ? ` node/${process.version}` : '';
  return `school-admin-sdk/${SDK_VERSION}${runtime}${suffix === undefined ? '' : ` ${suffix}`}`;
}
