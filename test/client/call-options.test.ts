import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdminClient, HttpError, InvalidInputError, MemoryPermitStore, RateLimitError, TimeoutError, type CallOptions } from '../../src/index.js';
import { API_KEY } from '../support/scripted-admin-api.js';
import { answerOk, failureOf, faultClient, json, OPERATION_CASES, operationCase } from '../reliability/support/operation-cases.js';
import { useFaultServer } from '../reliability/support/use-fault-server.js';

const server = useFaultServer();

const grantCoupon = operationCase('createCouponGrant');
const unavailable = { kind: 'respond', status: 503, body: 'busy' } as const;
const tooMany = json({ errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMIT_EXCEEDED', operation_type: 'mutations', retry_after: 0 } }] }, 429);

/** Every method, plus `request()`, called with per-call options. */
const EVERY_CALL: [name: string, call: (admin: AdminClient, options: CallOptions) => Promise<unknown>][] = [
  ...OPERATION_CASES.map((item) => [item.method, item.call] as [string, (admin: AdminClient, options: CallOptions) => Promise<unknown>]),
  ['request', (admin, options) => admin.request('query { __typename }', undefined, options)],
];

/** The rejection of `call`, checked to be the InvalidInputError of a local refusal; nothing reached the server. */
async function refusal(call: () => Promise<unknown>): Promise<InvalidInputError> {
  const error = await call().then(
    () => {
      throw new Error('expected the call to be refused');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(InvalidInputError);
  expect(server.log).toHaveLength(0);
  return error as InvalidInputError;
}

describe('per-call timeoutMs', () => {
  it('bounds every attempt of that call only; the next call has the client\'s timeout again', async () => {
    server.script({ kind: 'hang' });
    const admin = faultClient(server, { timeoutMs: 700, maxRetries: 0 });
    const short = await failureOf(() => grantCoupon.call(admin, { timeoutMs: 100 }));
    expect(short.error).toBeInstanceOf(TimeoutError);
    expect(short.error).toMatchObject({ timeoutMs: 100 });
    expect((short.error as Error).message).toContain('within 100 ms');
    expect(short.elapsedMs).toBeLessThan(650);
    const plain = await failureOf(() => grantCoupon.call(admin));
    expect(plain.error).toMatchObject({ name: 'TimeoutError', timeoutMs: 700 });
    expect(plain.elapsedMs).toBeGreaterThanOrEqual(650);
  });

  it('applies to each retry of an idempotent call', async () => {
    server.script({ kind: 'hang' });
    const admin = faultClient(server, { timeoutMs: 5_000, maxRetries: 2 });
    const { error, elapsedMs } = await failureOf(() => grantCoupon.call(admin, { timeoutMs: 80 }));
    expect(error).toMatchObject({ name: 'TimeoutError', timeoutMs: 80 });
    expect(server.arrivals('createCouponGrant')).toBe(3);
    expect(elapsedMs).toBeLessThan(3_000);
  });

  it.each([
    ['zero', 0],
    ['negative', -5],
    ['not a number', '100'],
    ['infinite', Number.POSITIVE_INFINITY],
  ])('refuses a %s timeoutMs with InvalidInputError naming it; nothing sent', async (_case, timeoutMs) => {
    const error = await refusal(() => grantCoupon.call(faultClient(server), { timeoutMs } as never));
    expect(error.field).toBe('timeoutMs');
    expect(error.operation).toBe('grantCoupon');
  });

  it('with pacing on, refuses a timeoutMs not shorter than limits.leaseMs (the permit would be freed while the request may still arrive)', async () => {
    const admin = faultClient(server, { timeoutMs: 1_000, limits: { leaseMs: 2_000, store: new MemoryPermitStore() } });
    const error = await refusal(() => grantCoupon.call(admin, { timeoutMs: 2_000 }));
    expect(error).toMatchObject({ field: 'timeoutMs' });
    expect(error.message).toContain('limits.leaseMs (2000 ms)');
    server.script(answerOk);
    await expect(grantCoupon.call(admin, { timeoutMs: 1_999 })).resolves.toBeDefined();
  });
});

describe('per-call maxRetries', () => {
  it.each([
    [0, 1],
    [1, 2],
    [undefined, 4],
  ])('maxRetries %s sends an idempotent call failing with 503 %i times (the client allows 3 retries)', async (maxRetries, sent) => {
    server.script(unavailable);
    const admin = faultClient(server, { maxRetries: 3 });
    const options = maxRetries === undefined ? undefined : { maxRetries };
    await expect(grantCoupon.call(admin, options)).rejects.toBeInstanceOf(HttpError);
    expect(server.arrivals('createCouponGrant')).toBe(sent);
  });

  it('bounds the 429s of that call too', async () => {
    server.script(tooMany);
    const admin = faultClient(server, { maxRetries: 3, limits: { mutations: { windowMs: 50 }, store: new MemoryPermitStore() } });
    await expect(grantCoupon.call(admin, { maxRetries: 0 })).rejects.toBeInstanceOf(RateLimitError);
    expect(server.arrivals('createCouponGrant')).toBe(1);
  });

  it.each([-1, 1.5, '2'])('refuses maxRetries %j with InvalidInputError naming it; nothing sent', async (maxRetries) => {
    const error = await refusal(() => grantCoupon.call(faultClient(server), { maxRetries } as never));
    expect(error.field).toBe('maxRetries');
  });
});

describe('per-call headers', () => {
  it('reach the wire merged over the client\'s headers (names compared case-insensitively, the call\'s value wins), for that call only', async () => {
    server.script(answerOk);
    const admin = faultClient(server, { headers: { 'X-App': 'billing', 'X-Tenant': 'north' } });
    await grantCoupon.call(admin, { headers: { 'x-tenant': 'south', 'Idempotency-Key': 'grant-42' } });
    await grantCoupon.call(admin);
    const [first, second] = server.log.map((entry) => entry.request?.headers ?? {});
    expect(first).toMatchObject({ 'x-app': 'billing', 'x-tenant': 'south', 'idempotency-key': 'grant-42', 'x-service-api-key': API_KEY, 'content-type': 'application/json' });
    expect(second).toMatchObject({ 'x-app': 'billing', 'x-tenant': 'north' });
    expect(second).not.toHaveProperty('idempotency-key');
  });

  it.each(EVERY_CALL)('%s: sends the call\'s headers', async (_name, call) => {
    server.script(answerOk);
    await call(faultClient(server), { headers: { 'X-Trace-Id': 'trace-7' } });
    expect(server.log.map((entry) => entry.request?.headers['x-trace-id'])).toEqual(['trace-7']);
  });

  it('refuses the key header in any letter case and every header that would break the request, in every method: InvalidInputError naming the header, nothing sent', async () => {
    const reserved = ['X-Service-API-Key', 'Content-Type', 'Content-Length', 'Content-Encoding', 'Transfer-Encoding', 'Host', 'Connection', 'Keep-Alive', 'Upgrade', 'Expect', 'TE', 'Trailer', 'Accept', 'User-Agent'];
    const anyCase = (name: string) => fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }).map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
    const admin = faultClient(server);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...reserved).chain(anyCase), fc.constantFrom(...EVERY_CALL), async (name, [method, call]) => {
        const error = await refusal(() => call(admin, { headers: { 'X-Fine': 'yes', [name]: `${API_KEY} value` } }));
        expect(error.field).toBe(`headers.${name}`);
        expect(error.operation).toBe(method);
        expect(error.message).toContain(`the ${name} header cannot be set`);
        expect(error.message).toContain('Nothing was sent');
        expect(`${error.message} ${JSON.stringify(error)}`).not.toContain('value');
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    ['a line break in a value', { 'X-Note': 'a\r\nX-Injected: 1' }, 'headers.X-Note'],
    ['a NUL in a value', { 'X-Note': 'a\u0000b' }, 'headers.X-Note'],
    ['a character beyond Latin-1 in a value', { 'X-Note': 'caf\u00e9 \u2603' }, 'headers.X-Note'],
    ['a value that is not a string', { 'X-Count': 3 }, 'headers.X-Count'],
    ['a name that is not an HTTP token', { 'X Note': 'a' }, 'headers'],
    ['headers that are not an object', 'X-Note: a', 'headers'],
  ])('refuses %s (nothing sent)', async (_case, headers, field) => {
    const error = await refusal(() => grantCoupon.call(faultClient(server), { headers } as never));
    expect(error.field).toBe(field);
  });

  it('the client\'s headers option is checked the same way, when the client is created', () => {
    const create = (headers: Record<string, string>) => () => new AdminClient({ apiKey: API_KEY, baseUrl: server.url, headers });
    expect(create({ 'x-SERVICE-api-KEY': 'other' })).toThrow(expect.objectContaining({ name: 'InvalidInputError', operation: 'AdminClient', field: 'headers.x-SERVICE-api-KEY' }));
    expect(create({ Host: 'evil.example' })).toThrow(/the Host header cannot be set/);
    expect(create({ 'X-App': 'billing' })).not.toThrow();
  });
});

describe('per-call priority', () => {
  it.each(['urgent', 1])('refuses priority %j with InvalidInputError naming it; nothing sent', async (priority) => {
    const error = await refusal(() => grantCoupon.call(faultClient(server), { priority } as never));
    expect(error.field).toBe('priority');
  });

  it('accepts the two documented priorities', async () => {
    server.script(answerOk);
    const admin = faultClient(server);
    await expect(grantCoupon.call(admin, { priority: 'background' })).resolves.toBeDefined();
    await expect(grantCoupon.call(admin, { priority: 'interactive' })).resolves.toBeDefined();
  });
});

describe('per-call options of request()', () => {
  it('idempotent, timeoutMs and headers work together', async () => {
    server.script({ kind: 'hang' });
    const admin = faultClient(server, { timeoutMs: 5_000, maxRetries: 1 });
    const { error } = await failureOf(() => admin.request('mutation { revokeCouponGrant(grantId: "g") { errors } }', undefined, { idempotent: true, timeoutMs: 60, headers: { 'X-Run': 'nightly' } }));
    expect(error).toMatchObject({ name: 'TimeoutError', timeoutMs: 60 });
    expect(server.log.map((entry) => entry.request?.headers['x-run'])).toEqual(['nightly', 'nightly']);
  });
});

describe('a bulk call sent in chunks', () => {
  it('checks its options before the first chunk, and sends every chunk with them', async () => {
    server.script(answerOk);
    const admin = faultClient(server, { bulkChunkSize: 1 });
    await refusal(() => admin.bulkCancelMeetings(['m-1', 'm-2'], { headers: { Host: 'x' } }));
    await admin.bulkCancelMeetings(['m-1', 'm-2'], { headers: { 'X-Batch': 'b1' } });
    expect(server.log.map((entry) => entry.request?.headers['x-batch'])).toEqual(['b1', 'b1']);
  });
});
