import { describe, expect, it } from 'vitest';
import { AuthenticationError, BulkChunkError, GraphQLRequestError, GraphQLResponseError, HttpError, RateLimitError } from '../../src/index.js';
import { API_KEY } from '../support/scripted-admin-api.js';
import { answerOk, failureOf, faultClient, json, IDEMPOTENT_CASES, operationCase } from './support/operation-cases.js';
import { useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer();

const GRAPHQL_RESPONSE = { 'Content-Type': 'application/graphql-response+json; charset=utf-8', 'X-Request-Id': 'req-7f3a' };
const JSON_MEDIA = { 'Content-Type': 'application/json; charset=utf-8' };
/** What graphql-js (and so yoga, Apollo, mercurius) says of a field the schema lacks. */
const NO_APPLIED_COUNT = {
  message: 'Cannot query field "appliedCount" on type "AdminCoupon".',
  locations: [{ line: 1, column: 362 }],
  extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
};
const requestError = (...errors: unknown[]) => ({ errors });

describe('request errors are read from any JSON body, whatever the status and media type (GraphQL over HTTP)', () => {
  // Regression: a 400 with {"errors": [...]} (a request error under application/graphql-response+json,
  // as yoga and Apollo send it) became a bare HttpError "the server answered HTTP 400.": the
  // server's messages, and a schema drift such as a missing field, were invisible.
  it('HTTP 400 under application/graphql-response+json: GraphQLRequestError with the messages, locations, extensions, status and headers', async () => {
    server.script(json(requestError(NO_APPLIED_COUNT), 400, GRAPHQL_RESPONSE));
    const { error } = await failureOf(() => operationCase('createCoupon').call(faultClient(server)));
    expect(error).toBeInstanceOf(GraphQLRequestError);
    expect(error).toBeInstanceOf(GraphQLResponseError);
    expect(error).not.toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 400,
      requestId: 'req-7f3a',
      headers: { 'content-type': 'application/graphql-response+json; charset=utf-8' },
      messages: [NO_APPLIED_COUNT.message],
      graphQLErrors: [{ message: NO_APPLIED_COUNT.message, locations: [{ line: 1, column: 362 }], path: [], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }],
      serverCode: 'GRAPHQL_VALIDATION_FAILED',
      executed: false,
    });
  });

  it.each([
    ['HTTP 200 and no data entry (application/json, the legacy status)', 200],
    ['HTTP 400 under application/json (Apollo, mercurius)', 400],
    ['HTTP 422', 422],
  ])('%s: the same GraphQLRequestError', async (_how, status) => {
    server.script(json(requestError(NO_APPLIED_COUNT), status, JSON_MEDIA));
    const { error } = await failureOf(() => operationCase('createCoupon').call(faultClient(server)));
    expect(error).toBeInstanceOf(GraphQLRequestError);
    expect(error).toMatchObject({ status, missingFields: [{ type: 'AdminCoupon', field: 'appliedCount' }] });
  });

  it('"a deployed schema that lacks a field the SDK selects": the message says so and names the field; missingFields holds it', async () => {
    server.script(json(requestError(NO_APPLIED_COUNT), 400, GRAPHQL_RESPONSE));
    const { error } = await failureOf(() => operationCase('updateCoupon').call(faultClient(server)));
    expect((error as GraphQLRequestError).missingFields).toEqual([{ type: 'AdminCoupon', field: 'appliedCount' }]);
    expect((error as Error).message).toBe(
      "Failed to update the coupon: the deployed server's schema lacks the field AdminCoupon.appliedCount, which this SDK version selects; it refused the request (HTTP 400): Cannot query field \"appliedCount\" on type \"AdminCoupon\". Nothing ran. Use the SDK version made for the deployed API, or update the server.",
    );
  });

  it('several missing fields (with "Did you mean" hints): each named once; request() says the document selects them', async () => {
    const missing = (field: string, type: string) => ({ message: `Cannot query field "${field}" on type "${type}". Did you mean "amount"?` });
    server.script(json(requestError(missing('appliedCount', 'AdminCoupon'), missing('grants', 'AdminCoupon'), missing('appliedCount', 'AdminCoupon')), 400));
    const { error } = await failureOf(() => faultClient(server).request('query { coupon { appliedCount grants appliedCount } }'));
    expect((error as GraphQLRequestError).missingFields).toEqual([
      { type: 'AdminCoupon', field: 'appliedCount' },
      { type: 'AdminCoupon', field: 'grants' },
    ]);
    expect((error as Error).message).toMatch(
      /^Failed to run the request: the deployed server's schema lacks the fields AdminCoupon\.appliedCount and AdminCoupon\.grants, which the document selects; it refused the request \(HTTP 400\): Cannot query field "appliedCount" on type "AdminCoupon"\. Did you mean "amount"\? \(and 2 more in error\.graphQLErrors\)\. Nothing ran\. Select only fields the deployed schema has\.$/,
    );
  });

  it('any other request error: the message names the first server message; missingFields is empty', async () => {
    server.script(json(requestError({ message: 'Variable "$input" got invalid value 5 at "input.name"; String cannot represent a non string value: 5' }), 400));
    const { error } = await failureOf(() => operationCase('createCoupon').call(faultClient(server)));
    expect(error).toBeInstanceOf(GraphQLRequestError);
    expect((error as GraphQLRequestError).missingFields).toEqual([]);
    expect((error as Error).message).toContain('the server refused the request (HTTP 400): Variable "$input" got invalid value 5');
  });

  it('the message is redacted as usual: neither the key nor a variable the server echoed', async () => {
    server.script(json(requestError({ message: `Unknown member ada@example.com for key ${API_KEY}` }), 400));
    const { error } = await failureOf(() => faultClient(server).request('query Member($email: String) { member(email: $email) { id } }', { email: 'ada@example.com' }));
    expect((error as Error).message).toContain('the server refused the request (HTTP 400): Unknown member [redacted] for key [redacted]');
    expect(JSON.stringify(error)).not.toMatch(/ada@example\.com|sk_live_/);
    // The kept messages lose only the key (they may quote your input, as documented).
    expect((error as GraphQLRequestError).graphQLErrors[0]?.message).toBe('Unknown member ada@example.com for key [redacted]');
  });

  it.each(IDEMPOTENT_CASES.map((item) => [item.field, item] as const))('%s (safe to repeat, retries allowed): a request error is never sent again', async (field, item) => {
    server.script(json(requestError(NO_APPLIED_COUNT), 400), answerOk);
    const { error } = await failureOf(() => item.call(faultClient(server, { maxRetries: 4 })));
    expect(error).toBeInstanceOf(GraphQLRequestError);
    expect(server.arrivals(field)).toBe(1);
  });

  it('a query through request() (safe to repeat): a request error answered 200 is not sent again either', async () => {
    server.script(json(requestError({ message: 'Syntax Error: Expected Name, found <EOF>.', locations: [{ line: 1, column: 8 }] })), answerOk);
    const { error } = await failureOf(() => faultClient(server, { maxRetries: 4 }).request('query {'));
    expect(error).toMatchObject({ name: 'GraphQLRequestError', status: 200, graphQLErrors: [{ locations: [{ line: 1, column: 8 }] }] });
    expect(server.log).toHaveLength(1);
  });

  it('a request error in chunk 2 of a chunked bulk call: that chunk was not executed', async () => {
    const rows = Array.from({ length: 3 }, (_, index) => ({ startedAt: 1_800_000_000 + index * 3_600, endedAt: 1_800_003_600 + index * 3_600 }));
    const [row] = (operationCase('bulkCreateConsultingMeetings').data.bulkCreateConsultingMeetings as { results: unknown[] }).results;
    const firstChunk = { data: { bulkCreateConsultingMeetings: { allSucceeded: true, errors: null, results: [row, row] } } };
    server.script(json(firstChunk), json(requestError(NO_APPLIED_COUNT), 400));
    const { error } = await failureOf(() => faultClient(server, { bulkChunkSize: 2 }).bulkCreateMeetings('svc-1', rows));
    expect(error).toBeInstanceOf(BulkChunkError);
    expect((error as BulkChunkError).failedChunk).toMatchObject({ start: 2, end: 3, fate: 'not_executed' });
    expect((error as BulkChunkError).cause).toBeInstanceOf(GraphQLRequestError);
  });
});

describe('other statuses keep their classes', () => {
  it.each([
    [401, 'UNAUTHENTICATED'],
    [403, 'FORBIDDEN'],
  ])('HTTP %i with GraphQL errors: AuthenticationError', async (status, code) => {
    server.script(json(requestError({ message: 'no', extensions: { code } }), status, GRAPHQL_RESPONSE));
    const { error } = await failureOf(() => operationCase('createCoupon').call(faultClient(server)));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status });
  });

  it('HTTP 429 with the documented body: RateLimitError', async () => {
    const limited = requestError({ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMIT_EXCEEDED', operation_type: 'mutations', limit: 200, retry_after: 30 } });
    server.script(json(limited, 429, { 'Retry-After': '30' }));
    const { error } = await failureOf(() => operationCase('createCoupon').call(faultClient(server, { maxRateLimitWaitMs: 0 })));
    expect(error).toBeInstanceOf(RateLimitError);
  });

  it.each([
    [404, 'Not found: /v2/admin/graphql. The admin API is POST /admin/graphql.'],
    [405, 'Method GET not allowed: use POST.'],
    [413, 'Request entity too large.'],
  ])('HTTP %i with GraphQL errors refuses the HTTP request, not the document: HttpError naming the server\'s message', async (status, message) => {
    server.script(json(requestError({ message }), status));
    const { error } = await failureOf(() => operationCase('createCoupon').call(faultClient(server)));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).not.toBeInstanceOf(GraphQLRequestError);
    expect((error as Error).message).toBe(`Failed to create the coupon: the server answered HTTP ${status}: ${message.replace(/\.$/, '')}.`);
  });

  it('a 400 whose body is not GraphQL (a proxy\'s HTML): HttpError, as before', async () => {
    server.script({ kind: 'respond', status: 400, headers: { 'Content-Type': 'text/html' }, body: '<h1>Bad request</h1>' });
    const { error } = await failureOf(() => operationCase('createCoupon').call(faultClient(server)));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).not.toBeInstanceOf(GraphQLRequestError);
  });

  it('HTTP 503 with GraphQL errors: HttpError naming the server\'s message, still retried for an operation safe to repeat', async () => {
    server.script(json(requestError({ message: 'Service temporarily unavailable.' }), 503), answerOk);
    await expect(operationCase('updateCoupon').call(faultClient(server))).resolves.toBeDefined();
    expect(server.arrivals('updateCoupon')).toBe(2);
    server.reset();
    server.script(json(requestError({ message: 'Service temporarily unavailable.' }), 503));
    const { error } = await failureOf(() => operationCase('createCoupon').call(faultClient(server)));
    expect(error).toBeInstanceOf(HttpError);
    expect((error as Error).message).toBe('Failed to create the coupon: the server answered HTTP 503: Service temporarily unavailable. The server or a proxy failed; try again later.');
  });
});
