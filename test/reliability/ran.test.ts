import { describe, expect, it } from 'vitest';
import { AdminApiError, BulkChunkError, InvalidInputError, type MeetingRowInput, type Ran } from '../../src/index.js';
import { refusedPort } from '../support/refused-port.js';
import { json, answerOk, failureOf, faultClient, operationCase } from './support/operation-cases.js';
import type { FaultAction } from './support/fault-server.js';
import { useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer();

/** What the client threw for one scripted answer to `createCoupon` (never retried after it may have run). */
async function ranAfter(answer: FaultAction, options: Parameters<typeof faultClient>[1] = {}): Promise<AdminApiError> {
  server.script(answer);
  const { error } = await failureOf(() => operationCase('createCoupon').call(faultClient(server, { maxRetries: 0, ...options })));
  expect(error).toBeInstanceOf(AdminApiError);
  return error as AdminApiError;
}

const coded = (code: string, field = 'createCoupon') => json({ data: null, errors: [{ message: code, path: [field], extensions: { error: { code, message: code, details: {} } } }] });
const masked = { message: 'Unexpected error.', path: ['createCoupon'], extensions: { code: 'INTERNAL_SERVER_ERROR' } };

describe('AdminApiError.ran: "it ran", "it did not run" or "unknown", on every error', () => {
  it.each<[string, string, Ran, FaultAction]>([
    ['an answer whose data holds the result, with an error riding along', 'GraphQLResponseError', 'yes', json({ data: operationCase('createCoupon').data, errors: [{ message: 'late', path: ['createCoupon', 'coupon'] }] })],
    ['a mutation that failed after it started (data: null, the error at its path)', 'GraphQLResponseError', 'unknown', json({ data: null, errors: [masked] })],
    ['a document the server refused before running it (no data)', 'GraphQLRequestError', 'no', json({ errors: [{ message: 'Cannot query field "x" on type "Mutation".' }] }, 400)],
    ['a documented error code (a refusal)', 'CodedError', 'no', coded('COUPON-002')],
    ['GENERAL-001, an unexpected internal failure', 'CodedError', 'unknown', coded('GENERAL-001')],
    ['a code the spec does not list', 'CodedError', 'unknown', coded('COUPON-999')],
    ['HTTP 401', 'AuthenticationError', 'no', json({ errors: [{ message: 'no key' }] }, 401)],
    ['HTTP 404 (a 4xx refuses the request)', 'HttpError', 'no', { kind: 'respond', status: 404, body: 'not found' }],
    ['HTTP 500 (a 5xx may come after it ran)', 'HttpError', 'unknown', { kind: 'respond', status: 500, body: 'oops' }],
    ['a redirect (the server may have run it first)', 'RedirectError', 'unknown', { kind: 'respond', status: 303, headers: { Location: 'https://elsewhere.example/' }, body: '' }],
    ['a 2xx that is not JSON', 'InvalidResponseError', 'unknown', { kind: 'respond', status: 200, body: '<html>' }],
    ['a payload without its object and without a message (it ran)', 'InvalidResponseError', 'yes', json({ data: { createCoupon: { coupon: null, errors: null } } })],
    ['a payload refusal (errors in the payload)', 'PayloadError', 'no', json({ data: { createCoupon: { coupon: null, errors: ['Name is required'] } } })],
    ['a connection reset after the request was read', 'NetworkError', 'unknown', { kind: 'reset-after-read' }],
    ['no answer within timeoutMs', 'TimeoutError', 'unknown', { kind: 'hang' }],
  ])('%s: %s, ran %s', async (_case, name, ran, answer) => {
    const error = await ranAfter(answer, { timeoutMs: 200 });
    expect(error.name).toBe(name);
    expect(error.ran).toBe(ran);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ ran });
  });

  it('a 429 the retries could not get past: RateLimitError, ran "no"', async () => {
    const error = await ranAfter(json({ errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMIT_EXCEEDED' } }] }, 429, { 'Retry-After': '3600' }), { maxRateLimitWaitMs: 10 });
    expect(error).toMatchObject({ name: 'RateLimitError', ran: 'no' });
  });

  it('a connection refused (the request never reached the server): NetworkError, ran "no"', async () => {
    const closed = faultClient(server, { baseUrl: `http://127.0.0.1:${await refusedPort()}`, maxRetries: 0 });
    const { error } = await failureOf(() => closed.grantCoupon('c-1', { email: 'ada@example.com' }));
    expect(error).toMatchObject({ name: 'NetworkError', mayHaveReachedServer: false, ran: 'no' });
  });

  it('an input refused before sending (no call made): ran "no"', async () => {
    const { error } = await failureOf(() => faultClient(server).grantCoupon('c-1', { email: 'ada@example.com', userId: 'u-1' } as never));
    expect(error).toMatchObject({ name: 'CodedError', code: 'COUPON-006', local: true, ran: 'no' });
    expect(new InvalidInputError('Failed to x: y.', { operation: 'x', field: 'y' }).ran).toBe('no');
    expect(server.log).toHaveLength(0);
  });
});

describe('executed, the deprecated alias, is ran === "yes"', () => {
  it('true when the answer shows it ran; false both when it did not run and when it may have', async () => {
    const ran = await ranAfter(json({ data: operationCase('createCoupon').data, errors: [{ message: 'late', path: ['createCoupon', 'coupon'] }] }));
    const mayHave = await ranAfter(json({ data: null, errors: [masked] }));
    const refused = await ranAfter(json({ errors: [{ message: 'Syntax Error' }] }, 400));
    expect([ran, mayHave, refused].map((error) => [error.ran, (error as AdminApiError & { executed: boolean }).executed])).toEqual([
      ['yes', true],
      ['unknown', false],
      ['no', false],
    ]);
    expect(JSON.parse(JSON.stringify(ran))).toMatchObject({ ran: 'yes', executed: true });
  });
});

describe('a failed chunk: BulkChunkError.ran is its fate, and the fate is read from the chunk error\'s ran', () => {
  const CHUNK = 2;
  const rows: MeetingRowInput[] = Array.from({ length: 4 }, (_, index) => ({ startedAt: 1_800_000_000 + index * 3_600, endedAt: 1_800_001_800 + index * 3_600 }));
  const firstChunkOkThen = (failure: FaultAction) => {
    let seen = 0;
    return (request: Parameters<typeof answerOk>[0]): FaultAction => {
      seen += 1;
      if (seen > 1) return failure;
      const inputs = request.variables.inputs as unknown[];
      return json({ data: { bulkCreateConsultingMeetings: { allSucceeded: true, errors: null, results: inputs.map(() => ({ meeting: null, errors: ['MEETING-008 joinUrl required'] })) } } });
    };
  };

  it.each<[string, string, Ran, FaultAction]>([
    ['a documented code refuses the chunk', 'not_executed', 'no', coded('CONSULTING-001', 'bulkCreateConsultingMeetings')],
    // Before: every CodedError was "not_executed", though GENERAL-001 may come after rows were created.
    ['GENERAL-001 may come after some rows were created', 'unknown', 'unknown', coded('GENERAL-001', 'bulkCreateConsultingMeetings')],
    // Before: "unknown"; a 4xx refuses the request as a whole.
    ['HTTP 413 refuses the chunk', 'not_executed', 'no', { kind: 'respond', status: 413, body: 'too large' }],
    ['HTTP 503 may come after it ran', 'unknown', 'unknown', { kind: 'respond', status: 503, body: 'unavailable' }],
  ])('%s: fate %s, ran %s', async (_case, fate, ran, failure) => {
    server.script(firstChunkOkThen(failure));
    const { error } = await failureOf(() => faultClient(server, { bulkChunkSize: CHUNK, maxRetries: 0 }).bulkCreateMeetings('svc-1', rows));
    expect(error).toBeInstanceOf(BulkChunkError);
    expect(error).toMatchObject({ failedChunk: { start: 2, end: 4, fate }, ran });
    expect(((error as BulkChunkError).cause as AdminApiError).ran).toBe(ran);
  });
});
