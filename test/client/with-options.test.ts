import { describe, expect, it } from 'vitest';
import { AdminClient, InvalidInputError, MemoryPermitStore, type AdminClientOptions, type Logger, type RequestEvent } from '../../src/index.js';
import { API_KEY } from '../support/scripted-admin-api.js';
import type { FaultStep } from '../reliability/support/fault-server.js';
import { answerOk, failureOf, faultClient, json, operationCase } from '../reliability/support/operation-cases.js';
import { useFaultServer } from '../reliability/support/use-fault-server.js';

const server = useFaultServer();

const grantCoupon = operationCase('createCouponGrant');
const WINDOW_MS = 400;

/** A paced client with its own store: `limit` mutations per 400 ms window. */
const paced = (limit: number, options: Partial<AdminClientOptions> = {}) =>
  faultClient(server, { limits: { mutations: { limit, windowMs: WINDOW_MS }, store: new MemoryPermitStore() }, ...options });

/** When each request reached the server, in ms since `start`. */
function arrivalTimes(start: number): { step: FaultStep; times: number[] } {
  const times: number[] = [];
  return {
    times,
    step: (request) => {
      times.push(performance.now() - start);
      return answerOk(request);
    },
  };
}

describe('withOptions() shares the budget', () => {
  it('calls of the parent and of the derived client count against one budget: the third of a limit of 2 waits for the window', async () => {
    const admin = paced(2);
    const derived = admin.withOptions({ timeoutMs: 1_000 });
    const { step, times } = arrivalTimes(performance.now());
    server.script(step);
    await Promise.all([grantCoupon.call(admin), grantCoupon.call(derived), grantCoupon.call(derived)]);
    expect(times).toHaveLength(3);
    expect(times[2]).toBeGreaterThanOrEqual(WINDOW_MS - 50);
  });

  it('the limit the server states on the derived client\'s 429 paces the parent too (one limiter, not only one store)', async () => {
    const admin = paced(10, { maxRetries: 4 });
    const derived = admin.withOptions({ headers: { 'X-Job': 'sync' } });
    let first = true;
    server.script((request) => {
      if (first) {
        first = false;
        return json({ errors: [{ message: 'slow down', extensions: { code: 'RATE_LIMIT_EXCEEDED', limit: 1 } }] }, 429, { 'Retry-After': '0', 'X-RateLimit-Limit': '1' });
      }
      return answerOk(request);
    });
    await grantCoupon.call(derived);
    const { step, times } = arrivalTimes(performance.now());
    server.script(step);
    await Promise.all([grantCoupon.call(admin), grantCoupon.call(admin)]);
    // Limit 1 per window now: the second goes a window after the first (with a limiter of its own, both would go at once).
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(WINDOW_MS - 50);
  });

  it('a client created apart with its own store does not share it (the control for the tests above)', async () => {
    const admin = paced(2);
    const apart = paced(2);
    const { step, times } = arrivalTimes(performance.now());
    server.script(step);
    await Promise.all([grantCoupon.call(admin), grantCoupon.call(admin), grantCoupon.call(apart)]);
    expect(Math.max(...times)).toBeLessThan(WINDOW_MS - 50);
  });
});

describe('withOptions() shares the events', () => {
  it('listeners of the parent see the derived client\'s calls; the derived client\'s listeners see only its own', async () => {
    server.script(answerOk);
    const admin = faultClient(server);
    const derived = admin.withOptions({ maxRetries: 0 });
    const grandchild = derived.withOptions({ timeoutMs: 300 });
    const seen = { admin: [] as RequestEvent[], derived: [] as RequestEvent[], grandchild: [] as RequestEvent[] };
    admin.on('request', (event) => seen.admin.push(event));
    derived.on('request', (event) => seen.derived.push(event));
    grandchild.on('request', (event) => seen.grandchild.push(event));
    await grantCoupon.call(admin);
    await grantCoupon.call(derived);
    await grantCoupon.call(grandchild);
    expect(seen.admin).toHaveLength(3);
    expect(seen.derived.map((event) => event.callId)).toEqual(seen.admin.slice(1).map((event) => event.callId));
    expect(seen.grandchild.map((event) => event.callId)).toEqual([seen.admin[2]?.callId]);
  });

  it('the parent\'s logger logs the derived client\'s calls once, with their call ids', async () => {
    server.script(answerOk);
    const lines: string[] = [];
    const at = (message: string) => lines.push(message);
    const logger: Logger = { debug: at, info: at, warn: at, error: at };
    const admin = faultClient(server, { logger, logLevel: 'debug' });
    const derived = admin.withOptions({ timeoutMs: 300 });
    const ids: string[] = [];
    derived.on('request', (event) => ids.push(event.callId));
    await grantCoupon.call(derived);
    expect(lines).toHaveLength(2); // request + response, not twice
    for (const line of lines) expect(line).toContain(`[${ids[0]}]`);
  });
});

describe('withOptions() overrides options for the derived client only', () => {
  it('timeoutMs and maxRetries apply to the derived client; the parent keeps its own', async () => {
    server.script({ kind: 'hang' });
    const admin = faultClient(server, { timeoutMs: 700, maxRetries: 0 });
    const quick = admin.withOptions({ timeoutMs: 100 });
    const fast = await failureOf(() => grantCoupon.call(quick));
    expect(fast.error).toMatchObject({ name: 'TimeoutError', timeoutMs: 100 });
    const slow = await failureOf(() => grantCoupon.call(admin));
    expect(slow.error).toMatchObject({ name: 'TimeoutError', timeoutMs: 700 });
  });

  it('headers are merged over the parent\'s; a call\'s own headers go over both', async () => {
    server.script(answerOk);
    const admin = faultClient(server, { headers: { 'X-App': 'billing', 'X-Tenant': 'north' } });
    const derived = admin.withOptions({ headers: { 'x-tenant': 'south', 'X-Job': 'sync' } });
    await grantCoupon.call(derived, { headers: { 'X-Job': 'sync-2' } });
    await grantCoupon.call(admin);
    const [fromDerived, fromParent] = server.log.map((entry) => entry.request?.headers ?? {});
    expect(fromDerived).toMatchObject({ 'x-app': 'billing', 'x-tenant': 'south', 'x-job': 'sync-2', 'x-service-api-key': API_KEY });
    expect(fromParent).toMatchObject({ 'x-app': 'billing', 'x-tenant': 'north' });
    expect(fromParent).not.toHaveProperty('x-job');
  });

  it('requestIdHeaders and bulkChunkSize can be changed', async () => {
    server.script((request) => ({ ...(answerOk(request) as { kind: 'respond'; status: number; body: string }), headers: { 'X-Trace': 'trace-1' } }));
    const derived = faultClient(server).withOptions({ requestIdHeaders: ['x-trace'], bulkChunkSize: 1 });
    const { response } = await derived.bulkCancelMeetings(['m-1', 'm-2']).withResponse();
    expect(response?.requestId).toBe('trace-1');
    expect(server.log).toHaveLength(2);
  });

  it.each([
    ['apiKey', { apiKey: 'sk_live_other' }, /another key is another client/],
    ['baseUrl', { baseUrl: 'https://other.example' }, /another server is another client/],
    ['fetch', { fetch: globalThis.fetch }, /create a new AdminClient/],
    ['limits', { limits: false }, /shares its parent's rate-limit budget/],
    ['logger', { logger: console }, /use on\(\) of the derived client/],
    ['logLevel', { logLevel: 'debug' }, /use on\(\) of the derived client/],
    ['userAgent', { userAgent: 'x/1' }, /parent's transport/],
    ['timeoutMs', { timeoutMs: -1 }, /timeoutMs must be a positive number/],
    ['timeoutMs', { timeoutMs: 40_000 }, /shorter than the parent's limits.leaseMs \(35000 ms\)/],
    ['headers.Content-Type', { headers: { 'Content-Type': 'text/plain' } }, /the Content-Type header cannot be set/],
    ['priority', { priority: 'soon' }, /'interactive' or 'background'/],
    ['timeout', { timeout: 5 }, /timeout is not an option of AdminClient\.$/],
    ['timeOutMs', { timeOutMs: 5 }, /timeOutMs is not an option of AdminClient \(did you mean timeoutMs\?\)/],
  ])('refuses %s with InvalidInputError naming it', (field, overrides, message) => {
    const admin = new AdminClient({ apiKey: API_KEY, baseUrl: server.url });
    const attempt = () => admin.withOptions(overrides as never);
    expect(attempt).toThrow(InvalidInputError);
    expect(attempt).toThrow(expect.objectContaining({ field, operation: 'withOptions' }));
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect(`${(error as Error).message} ${JSON.stringify(error)}`).not.toContain('sk_live_other');
    }
  });

  it('a derived client is cheap: it makes no new limiter or transport (grantCouponToMany through it shares the budget)', async () => {
    const admin = paced(2);
    const background = admin.withOptions({ priority: 'background' });
    const { step, times } = arrivalTimes(performance.now());
    server.script(step);
    const [summary] = await Promise.all([background.grantCouponToMany('c-1', [{ email: 'ada@example.com' }, { email: 'grace@example.com' }]), grantCoupon.call(admin)]);
    expect(summary.counts.created).toBe(2);
    expect(times).toHaveLength(3);
    expect(Math.max(...times)).toBeGreaterThanOrEqual(WINDOW_MS - 50);
  });
});
