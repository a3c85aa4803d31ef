import { execute, type GraphQLSchema } from 'graphql';
import { missingScope } from '../auth/scopes.js';
import type { ApiKeyRecord, ApiKeyRegistry } from '../auth/api-keys.js';
import type { DocumentCache } from '../graphql/document-cache.js';
import { formatExecutionResult } from '../graphql/format-errors.js';
import type { ResolverContext } from '../graphql/resolver-context.js';
import type { StatsRecorder } from '../observability/stats.js';
import type { ResolvedSimulatorOptions } from '../options.js';
import { classifyOperation, type OperationType } from '../rate-limit/classify-operation.js';
import type { SlidingWindowCounter } from '../rate-limit/sliding-window.js';
import { parseRequestBody } from './request-body.js';
import { errorResponse, jsonResponse, rateLimitedResponse } from './responses.js';
import { headerValue, requestPath, type SimulatorRequest, type SimulatorResponse } from './simulator-request.js';

/** The admin endpoint; `/graphql` is the public school API and not served here. */
export const ADMIN_PATH = '/admin/graphql';
/** The header that carries the API key. */
export const API_KEY_HEADER = 'x-service-api-key';
/**
 * The response header that carries the simulator's id of each request (the spec names none): the
 * first of the client's default `requestIdHeaders`, so `withResponse()`'s `response.requestId` and
 * `error.requestId` hold it.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** What the pipeline works with (owned by the simulator). */
export interface PipelineDeps {
  options: ResolvedSimulatorOptions;
  counter: SlidingWindowCounter;
  keys: ApiKeyRegistry;
  stats: StatsRecorder;
  schema: GraphQLSchema;
  /** Parsed and validated documents by query text. */
  documents: DocumentCache;
  rootValue: Record<string, unknown>;
  /** The resolver context of a key's school, or undefined when the school is gone. */
  contextFor(key: ApiKeyRecord, nowMs: number): ResolverContext | undefined;
}

/** The outcome of the stages before execution: a response, or nothing (go on). */
type Stage = SimulatorResponse | undefined;

/** The rate-limit stage: a 429, or nothing; and the headers every answer then carries (`rateLimitHeaders: 'every-answer'`). */
function rateLimit(deps: PipelineDeps, key: string, type: OperationType, fields: string[], nowMs: number): { stage: Stage; headers: Record<string, string> } {
  if (deps.options.limits === false) return { stage: undefined, headers: {} };
  const rule = deps.options.limits[type];
  const verdict = deps.counter.arrive(`${type}:${key}`, nowMs, rule);
  const headers = deps.options.rateLimitHeaders === 'every-answer' ? statedBudgetHeaders(type, rule, verdict.allowed ? verdict.remaining : 0, verdict.resetAtMs - nowMs) : {};
  if (verdict.allowed) return { stage: undefined, headers };
  deps.stats.rateLimited(type, fields);
  return { stage: rateLimitedResponse({ operationType: type, limit: rule.limit, windowMs: rule.windowMs, ...verdict }), headers };
}

/** What a self-hosted server that states its budget sends (see `SimulatorOptions.rateLimitHeaders`). */
function statedBudgetHeaders(type: OperationType, rule: { limit: number; windowMs: number }, remaining: number, resetMs: number): Record<string, string> {
  const windowSeconds = String(Math.ceil(rule.windowMs / 1000));
  return {
    'ratelimit-policy': `"${type}";q=${rule.limit};w=${windowSeconds}`,
    ratelimit: `"${type}";r=${remaining};t=${Math.max(0, Math.ceil(resetMs / 1000))}`,
    'x-ratelimit-limit': String(rule.limit),
    'x-ratelimit-window': windowSeconds,
  };
}

function unauthenticated(deps: PipelineDeps, presented: string | undefined): SimulatorResponse {
  deps.stats.refused('unauthenticated');
  const reason = presented ? 'the API key is not valid' : 'the X-Service-API-Key header is missing';
  return errorResponse(deps.options.auth.unauthenticatedStatus, `Failed to authenticate: ${reason}. Send a live secret key (sk_live_...) of the school.`, {
    code: 'UNAUTHENTICATED',
  });
}

/**
 * Runs one request through the stages the brief fixes: path and method, rate limit (every
 * arrival counts, per key and operation type), authentication, body and document checks, scopes,
 * then execution against the key's school.
 */
export function processRequest(deps: PipelineDeps, request: SimulatorRequest, arrivedAtMs: number): { response: SimulatorResponse; type: OperationType; fields: string[]; apiKeyId: string | null } {
  const path = requestPath(request);
  const none = { type: 'queries' as const, fields: [], apiKeyId: null };
  if (path !== ADMIN_PATH) {
    return { ...none, response: errorResponse(404, `Not found: ${path}. The admin API is POST ${ADMIN_PATH}.`, { code: 'NOT_FOUND' }) };
  }
  if (request.method.toUpperCase() !== 'POST') {
    return { ...none, response: errorResponse(405, `Method ${request.method} not allowed: use POST.`, { code: 'METHOD_NOT_ALLOWED' }, { allow: 'POST' }) };
  }
  const body = parseRequestBody(request.body);
  const type = classifyOperation(body.query);
  const operationName = body.ok ? body.operationName : undefined;
  const info = deps.documents.analyse(body.query, operationName);
  const presented = headerValue(request.headers, API_KEY_HEADER)?.trim();
  const key = presented ? deps.keys.find(presented) : undefined;
  deps.stats.arrival(type, info.fields);
  const { stage: limited, headers: budgetHeaders } = rateLimit(deps, presented ?? '', type, info.fields, arrivedAtMs);
  const outcome = (response: SimulatorResponse) => ({ response: { ...response, headers: { ...response.headers, ...budgetHeaders } }, type, fields: info.fields, apiKeyId: key?.id ?? null });
  if (limited) return outcome(limited);
  if (!key) return outcome(unauthenticated(deps, presented));
  if (!body.ok) return outcome(errorResponse(400, `Bad request: ${body.reason}.`, { code: 'BAD_REQUEST' }));
  if (!info.document) return outcome(jsonResponse(200, { errors: [info.syntaxError?.toJSON()] }));
  const lacking = info.operation ? missingScope(info.operation, info.fields, key.scopes, deps.options.auth.updateSubscriptionScopes) : undefined;
  if (lacking) {
    deps.stats.refused('forbidden');
    const scopes = lacking.anyOf.join(' or ');
    return outcome(
      errorResponse(deps.options.auth.forbiddenStatus, `Failed to authorise ${lacking.field}: the API key lacks the scope ${scopes}. Use a key with that scope.`, {
        code: 'FORBIDDEN',
        field: lacking.field,
        requiredScopes: [...lacking.anyOf],
      }),
    );
  }
  const validationErrors = deps.documents.validate(body.query, operationName);
  if (validationErrors.length > 0) return outcome(jsonResponse(200, { errors: validationErrors.map((error) => error.toJSON()) }));
  const contextValue = deps.contextFor(key, arrivedAtMs);
  if (!contextValue) return outcome(unauthenticated(deps, presented));
  const result = execute({
    schema: deps.schema,
    document: info.document,
    rootValue: deps.rootValue,
    contextValue,
    variableValues: body.variables,
    operationName: body.operationName,
  });
  if (result instanceof Promise) throw new Error('Failed to execute: resolvers must be synchronous. Keep the simulator\'s resolvers free of awaits.');
  return outcome(jsonResponse(200, formatExecutionResult(result, (code) => deps.stats.codedError(code))));
}
