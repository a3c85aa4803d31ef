import { describe, expect, it } from 'vitest';
import {
  AdminApiError,
  AdminApiPromise,
  BulkChunkError,
  InvalidInputError,
  MemoryPermitStore,
  NetworkError,
  TimeoutError,
  type AdminClient,
  type CallOptions,
  type CallResponse,
} from '../../src/index.js';
import type { FaultAction, FaultStep } from '../reliability/support/fault-server.js';
import { answerOk, faultClient, json, OPERATION_CASES, operationCase } from '../reliability/support/operation-cases.js';
import type { RawHeaders, RawRequest } from '../reliability/support/raw-http.js';
import { useFaultServer } from '../reliability/support/use-fault-server.js';

const server = useFaultServer();

const grantCoupon = operationCase('createCouponGrant');
const createCoupon = operationCase('createCoupon');

/** A successful answer of whatever was asked, with these headers. */
const okWith =
  (headers: RawHeaders): FaultStep =>
  (request: RawRequest) => ({ ...(answerOk(request) as Extract<FaultAction, { kind: 'respond' }>), headers });

/** Every method, plus `request()`. */
const EVERY_CALL: [name: string, call: (admin: AdminClient, options?: CallOptions) => Promise<unknown>][] = [
  ...OPERATION_CASES.map((item) => [item.method, item.call] as [string, (admin: AdminClient, options?: CallOptions) => Promise<unknown>]),
  ['request', (admin, options) => admin.request('query { __typename }', undefined, options)],
];

/** The id of the one call `admin` makes in `run` (from its request events). */
async function withCallId<T>(admin: AdminClient, run: () => Promise<T>): Promise<{ result: T; callIds: string[] }> {
  const ids = new Set<string>();
  const stop = admin.on('request', (event) => ids.add(event.callId));
  try {
    return { result: await run(), callIds: [...ids] };
  } finally {
    stop();
  }
}

describe('withResponse(): a result readable with its status, headers and request id', () => {
  it('gives { data, response }: data is what awaiting the call gives, response its status, headers, request id, call id and attempt', async () => {
    server.script(okWith({ 'X-Request-ID': 'req_7Hq2', 'X-Served-By': 'edge-3' }));
    const admin = faultClient(server);
    const plain = await grantCoupon.call(admin);
    const { result, callIds } = await withCallId(admin, () => admin.grantCoupon('c-1', { userId: 'user-1' }).withResponse());
    expect(result.data).toEqual(plain);
    expect(result.response).toEqual({
      status: 200,
      requestId: 'req_7Hq2',
      callId: callIds[0],
      attempt: 1,
      headers: expect.objectContaining({ 'x-request-id': 'req_7Hq2', 'x-served-by': 'edge-3', 'content-type': 'application/json' }),
    });
    expect(Object.isFrozen(result.response.headers)).toBe(true);
  });

  it.each(EVERY_CALL)('%s: returns an AdminApiPromise whose withResponse() data equals the plain result', async (_name, call) => {
    server.script(okWith({ 'x-request-id': 'req-every' }));
    const admin = faultClient(server);
    const pending = call(admin);
    expect(pending).toBeInstanceOf(AdminApiPromise);
    expect(pending).toBeInstanceOf(Promise);
    const plain = await pending;
    const { data, response } = await (call(admin) as AdminApiPromise<unknown, CallResponse | undefined>).withResponse();
    expect(data).toEqual(plain);
    expect(response?.requestId).toBe('req-every');
  });

  it('plain use is unchanged: then/catch/finally, Promise.all, and an async function returning the call', async () => {
    server.script(answerOk);
    const admin = faultClient(server);
    const chained = await admin.cancelMeeting('m-1').then((meeting) => meeting.state);
    expect(chained).toBe('canceled');
    let finished = false;
    await admin.cancelMeeting('m-1').finally(() => (finished = true));
    expect(finished).toBe(true);
    const [a, b] = await Promise.all([admin.cancelMeeting('m-1'), admin.request('query { __typename }')]);
    expect(a.id).toBe('m-1');
    expect(b).toEqual({ __typename: 'Query' });
    const viaAsync = async () => admin.cancelMeeting('m-1');
    expect((await viaAsync()).state).toBe('canceled');
  });

  it('a refused input still rejects the promise (it does not throw when the method is called), and withResponse() rejects with it', async () => {
    const admin = faultClient(server);
    const pending = admin.grantCoupon('', { userId: 'u' });
    await expect(pending).rejects.toBeInstanceOf(InvalidInputError);
    await expect(admin.grantCoupon('', { userId: 'u' }).withResponse()).rejects.toBeInstanceOf(InvalidInputError);
    expect(server.log).toHaveLength(0);
  });

  it('reading only withResponse() of a failing call leaves no unhandled rejection', async () => {
    server.script({ kind: 'respond', status: 500, body: 'down' });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await expect(createCoupon.call(faultClient(server)) as AdminApiPromise<unknown>).rejects.toBeInstanceOf(AdminApiError);
      await expect((createCoupon.call(faultClient(server)) as AdminApiPromise<unknown>).withResponse()).rejects.toMatchObject({ status: 500 });
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it('after 429s and retries, the response is the one that answered, with its attempt number', async () => {
    let seen = 0;
    server.script((request) => {
      seen += 1;
      if (seen === 1) return json({ errors: [{ message: 'slow down', extensions: { code: 'RATE_LIMIT_EXCEEDED' } }] }, 429, { 'X-Request-Id': 'req-429' });
      if (seen === 2) return { kind: 'respond', status: 503, headers: { 'X-Request-Id': 'req-503' }, body: 'busy' };
      return (okWith({ 'X-Request-Id': 'req-ok' }) as (r: RawRequest) => FaultAction)(request);
    });
    const admin = faultClient(server, { limits: { mutations: { windowMs: 50 }, store: new MemoryPermitStore() } });
    const { response } = await admin.grantCoupon('c-1', { userId: 'user-1' }).withResponse();
    expect(response).toMatchObject({ status: 200, requestId: 'req-ok', attempt: 3 });
  });

  it('a bulk call sent in chunks gives its last chunk\'s response; an empty bulk input sends nothing and has none', async () => {
    let chunk = 0;
    server.script((request) => (okWith({ 'X-Request-Id': `req-chunk-${(chunk += 1)}` }) as (r: RawRequest) => FaultAction)(request));
    const admin = faultClient(server, { bulkChunkSize: 1 });
    const { data, response } = await admin.bulkCancelMeetings(['m-1', 'm-2', 'm-3']).withResponse();
    expect(data.results).toHaveLength(3);
    expect(response?.requestId).toBe('req-chunk-3');
    const empty = await admin.bulkCancelMeetings([]).withResponse();
    expect(empty).toEqual({ data: { allSucceeded: true, errors: [], results: [] }, response: undefined });
    expect(server.log).toHaveLength(3);
  });
});

describe('the request id: the first of requestIdHeaders the response carries (the spec names none)', () => {
  it.each<[string, RawHeaders, string | undefined]>([
    ['x-request-id in any letter case', { 'X-REQUEST-ID': 'abc-1' }, 'abc-1'],
    ['padded with spaces', { 'x-request-id': '   abc-2   ' }, 'abc-2'],
    ['sent twice: both values, as fetch joins them', { 'x-request-id': ['abc-3', 'abc-4'] }, 'abc-3, abc-4'],
    ['an empty x-request-id falls through to request-id', { 'x-request-id': '', 'Request-Id': 'abc-5' }, 'abc-5'],
    ['only an Amazon id', { 'x-amzn-RequestId': 'amz-6' }, 'amz-6'],
    ['only a Cloudflare ray', { 'CF-RAY': '8a1b2c3d4e5f-AMS' }, '8a1b2c3d4e5f-AMS'],
    ['the preferred one wins over a later one', { 'cf-ray': 'ray-7', 'x-request-id': 'abc-7' }, 'abc-7'],
    ['none of them', { 'x-trace': 't-8' }, undefined],
    ['Latin-1 bytes in the value, as read by fetch', { 'x-request-id': 'caf\u00e9-9' }, 'caf\u00e9-9'],
    ['longer than 256 characters: cut to 256', { 'x-request-id': 'r'.repeat(5_000) }, 'r'.repeat(256)],
  ])('%s', async (_case, headers, requestId) => {
    server.script(okWith(headers));
    const { response } = await faultClient(server).grantCoupon('c-1', { userId: 'user-1' }).withResponse();
    expect(response.requestId).toBe(requestId);
  });

  it('requestIdHeaders replaces the list (names compared case-insensitively)', async () => {
    server.script(okWith({ 'x-request-id': 'not-this', 'X-Trace-Token': 'this-one' }));
    const { response } = await faultClient(server, { requestIdHeaders: ['X-Trace-Token'] }).grantCoupon('c-1', { userId: 'user-1' }).withResponse();
    expect(response.requestId).toBe('this-one');
  });

  it('a requestIdHeaders that is not a list of header names is refused when the client is created', () => {
    expect(() => faultClient(server, { requestIdHeaders: ['bad name'] })).toThrow(expect.objectContaining({ name: 'InvalidInputError', field: 'requestIdHeaders' }));
    expect(() => faultClient(server, { requestIdHeaders: 'x-request-id' as never })).toThrow(InvalidInputError);
  });
});

/** One response per error class that comes with a response, each with the request id `req-<name>`. */
const WITH_RESPONSE: [errorClass: string, status: number, step: FaultStep, call?: (admin: AdminClient) => Promise<unknown>, options?: Parameters<typeof faultClient>[1]][] = [
  ['CodedError', 200, json({ data: null, errors: [{ message: 'no', path: ['createCoupon'], extensions: { error: { code: 'COUPON-002', message: 'no', details: {} } } }] }, 200, { 'X-Request-Id': 'req-CodedError' })],
  ['PayloadError', 200, json({ data: { createCoupon: { coupon: null, errors: ['Name is taken'] } } }, 200, { 'X-Request-Id': 'req-PayloadError' })],
  ['RateLimitError', 429, json({ errors: [{ message: 'slow', extensions: { code: 'RATE_LIMIT_EXCEEDED', retry_after: 0 } }] }, 429, { 'X-Request-Id': 'req-RateLimitError' }), undefined, { maxRetries: 0 }],
  ['AuthenticationError', 401, json({ errors: [{ message: 'bad key' }] }, 401, { 'X-Request-Id': 'req-AuthenticationError' })],
  ['HttpError', 502, { kind: 'respond', status: 502, headers: { 'Content-Type': 'text/html', 'X-Request-Id': 'req-HttpError' }, body: '<h1>Bad gateway</h1>' }],
  ['GraphQLResponseError', 200, json({ data: null, errors: [{ message: 'Cannot query field' }] }, 200, { 'X-Request-Id': 'req-GraphQLResponseError' })],
  ['InvalidResponseError', 200, { kind: 'respond', status: 200, headers: { 'X-Request-Id': 'req-InvalidResponseError' }, body: '{"data": {"createCoupon"' }],
  ['InvalidResponseError', 200, json({ data: { createCoupon: { coupon: null, errors: null } } }, 200, { 'X-Request-Id': 'req-InvalidResponseError' })],
  ['RedirectError', 307, { kind: 'respond', status: 307, headers: { Location: 'https://elsewhere.example/admin/graphql?token=t', 'X-Request-Id': 'req-RedirectError' }, body: '' }],
  [
    'BulkChunkError',
    503,
    (request) => (request.variables.ids as string[])[0] === 'm-1' ? answerOk(request) : { kind: 'respond', status: 503, headers: { 'X-Request-Id': 'req-BulkChunkError' }, body: 'busy' },
    (admin) => admin.bulkCancelMeetings(['m-1', 'm-2']),
    { bulkChunkSize: 1 },
  ],
];

describe('every AdminApiError that had a response carries its status, headers and request id (in toJSON() too)', () => {
  it.each(WITH_RESPONSE)('%s (HTTP %i)', async (errorClass, status, step, call = (admin) => createCoupon.call(admin), options = {}) => {
    server.script(step);
    const admin = faultClient(server, { maxRetries: 0, ...options });
    const { result: error, callIds } = await withCallId(admin, () => call(admin).catch((caught: unknown) => caught));
    expect(error).toBeInstanceOf(AdminApiError);
    expect((error as Error).name).toBe(errorClass);
    const requestId = `req-${errorClass}`;
    expect(error).toMatchObject({ status, requestId, callId: callIds.at(-1), headers: expect.objectContaining({ 'x-request-id': requestId }) });
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ status, requestId, callId: callIds.at(-1), headers: expect.objectContaining({ 'x-request-id': requestId }) });
    if (error instanceof BulkChunkError) expect(error.cause).toMatchObject({ status, requestId });
  });

  it.each<[string, FaultStep | undefined, (admin: AdminClient) => Promise<unknown>, Parameters<typeof faultClient>[1]]>([
    ['NetworkError', { kind: 'reset-after-read' }, (admin) => createCoupon.call(admin), {}],
    ['TimeoutError', { kind: 'hang' }, (admin) => createCoupon.call(admin), { timeoutMs: 80 }],
    ['InvalidInputError', undefined, (admin) => admin.createCoupon({ name: 'x', couponType: 'percentage', amount: 500 }), {}],
    ['CodedError', undefined, (admin) => admin.grantCoupon('c-1', { userId: 'u', email: 'a@b.co' } as never), {}],
  ])('%s: no response, so status, headers and request id are undefined', async (errorClass, step, call, options) => {
    if (step !== undefined) server.script(step);
    const error = await call(faultClient(server, { maxRetries: 0, ...options })).catch((caught: unknown) => caught);
    expect((error as Error).name).toBe(errorClass);
    expect(error).toMatchObject({ status: undefined, headers: undefined, requestId: undefined });
    const sent = error instanceof NetworkError || error instanceof TimeoutError;
    expect((error as AdminApiError).callId).toEqual(sent ? expect.stringMatching(/^call_/) : undefined);
    expect(JSON.parse(JSON.stringify(error))).not.toHaveProperty('headers');
  });
});
