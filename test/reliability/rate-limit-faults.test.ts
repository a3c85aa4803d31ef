import { describe, expect, it } from 'vitest';
import { MemoryPermitStore, RateLimitError, type AdminClient, type AdminClientOptions, type RateLimitedEvent } from '../../src/index.js';
import type { FaultAction, FaultStep } from './support/fault-server.js';
import { answerOk, failureOf, faultClient, json, operationCase } from './support/operation-cases.js';
import { firstThen, tooMany } from './support/rate-limit-answers.js';
import type { RawRequest } from './support/raw-http.js';
import { BOUNDED_MS, useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer();

/** A scaled window: a 429 without any usable hint backs off min(1 s, one window) = 300 ms. */
const WINDOW_MS = 300;
const createCoupon = operationCase('createCoupon');
const grantCoupon = operationCase('createCouponGrant');

/**
 * No test here is about timeouts: the fault server answers at once, yet on a starved CI machine
 * (10 calls at once, event-loop lag over 100 ms) an answer took over faultClient's 400 ms, and a
 * createCoupon, not safe to repeat, then ended in TimeoutError instead of RateLimitError.
 */
const ANSWER_TIMEOUT_MS = 2_000;

function rateLimitClient(options: Partial<AdminClientOptions> = {}): AdminClient {
  return faultClient(server, { timeoutMs: ANSWER_TIMEOUT_MS, ...options });
}

/** A client pacing under a scaled window with its own store, recording its rateLimited events. */
function pacedClient(options: Partial<AdminClientOptions> = {}): { admin: AdminClient; events: RateLimitedEvent[] } {
  const admin = rateLimitClient({ limits: { mutations: { limit: 50, windowMs: WINDOW_MS }, store: new MemoryPermitStore() }, ...options });
  const events: RateLimitedEvent[] = [];
  admin.on('rateLimited', (event) => events.push(event));
  return { admin, events };
}

describe('429 with no Retry-After', () => {
  it('a bare 429 (no headers, an HTML body): backs off min(1 s, window), then the mutation not safe to repeat executes exactly once', async () => {
    server.script({ kind: 'respond', status: 429, headers: { 'Content-Type': 'text/html' }, body: '<h1>Too Many Requests</h1>' }, answerOk);
    const { admin, events } = pacedClient();
    await expect(createCoupon.call(admin)).resolves.toMatchObject({ code: 'VIP20X' });
    expect(events).toEqual([{ operation: 'createCoupon', callId: expect.stringMatching(/^call_/), attempt: 1, operationType: 'mutations', waitMs: WINDOW_MS, limit: undefined, count: 1 }]);
    expect(server.arrivals('createCoupon')).toBe(2);
    expect(server.succeeded('createCoupon')).toBe(1);
  });

  it('the documented JSON body without any wait hint: same backoff, doubling per 429 of the call, capped at one window', async () => {
    server.script(tooMany(), tooMany(), answerOk);
    const { admin, events } = pacedClient({ limits: { mutations: { limit: 50, windowMs: 1_500 }, store: new MemoryPermitStore() } });
    await expect(createCoupon.call(admin)).resolves.toBeDefined();
    expect(events.map((event) => event.waitMs)).toEqual([1_000, 1_500]);
    expect(server.succeeded('createCoupon')).toBe(1);
  });
});

describe('429 with a garbage Retry-After', () => {
  it.each(['soon', '-5', '1e3', 'NaN', '', '12 seconds', '0x10'])('Retry-After %j is ignored (not guessed): the fallback backoff applies, then recovery', async (value) => {
    server.script(tooMany({ 'Retry-After': value }), answerOk);
    const { admin, events } = pacedClient();
    await expect(createCoupon.call(admin)).resolves.toBeDefined();
    expect(events.map((event) => event.waitMs)).toEqual([WINDOW_MS]);
    expect(server.succeeded('createCoupon')).toBe(1);
  });

  // Regression: Date.parse's legacy parser reads "later 2099" as a date in 2099; only the
  // HTTP-date forms are read as dates now, so the call backs off instead of giving up.
  it('Retry-After "later 2099" is ignored like other garbage', async () => {
    server.script(tooMany({ 'Retry-After': 'later 2099' }), answerOk);
    const { admin, events } = pacedClient();
    await expect(createCoupon.call(admin)).resolves.toBeDefined();
    expect(events.map((event) => event.waitMs)).toEqual([WINDOW_MS]);
  });
});

describe('429 with wait hints that overflow', () => {
  it('a Retry-After of 400 digits is ignored (not Infinity): the fallback backoff applies, then recovery', async () => {
    server.script(tooMany({ 'Retry-After': '9'.repeat(400) }), answerOk);
    const { admin, events } = pacedClient();
    await expect(createCoupon.call(admin)).resolves.toBeDefined();
    expect(events.map((event) => event.waitMs)).toEqual([WINDOW_MS]);
  });

  // Regression: body hints were multiplied by 1000 without a finiteness check, so 1e308 became an
  // Infinity wait (RateLimitError at once, "retry after Infinity s").
  it.each([
    ['extensions.retry_after', { retry_after: 1e308 }],
    ['extensions.reset_at', { reset_at: 1e308 }],
  ])('%s of 1e308 is ignored like an overflowing header (fallback backoff, then recovery)', async (_hint, extensions) => {
    server.script(tooMany({}, extensions), answerOk);
    const { admin, events } = pacedClient();
    await expect(createCoupon.call(admin)).resolves.toBeDefined();
    expect(events.map((event) => event.waitMs)).toEqual([WINDOW_MS]);
  });
});

describe('429 with an HTTP-date Retry-After', () => {
  it('waits until that date (whole seconds), then recovers', async () => {
    const at = new Date(Date.now() + 1_500);
    server.script(tooMany({ 'Retry-After': at.toUTCString() }), answerOk);
    const { admin, events } = pacedClient();
    const started = Date.now();
    await expect(createCoupon.call(admin)).resolves.toBeDefined();
    const waitMs = events[0]?.waitMs ?? Number.NaN;
    // toUTCString drops the milliseconds: the named second is up to 1 s before `at`.
    expect(waitMs).toBeGreaterThan(0);
    expect(waitMs).toBeLessThanOrEqual(1_500);
    expect(Date.now() - started).toBeGreaterThanOrEqual(waitMs - 20);
    expect(server.succeeded('createCoupon')).toBe(1);
  });

  it('a date already past never means an immediate re-send: the fallback backoff applies', async () => {
    server.script(tooMany({ 'Retry-After': new Date(Date.now() - 60_000).toUTCString() }), answerOk);
    const { admin, events } = pacedClient();
    await expect(createCoupon.call(admin)).resolves.toBeDefined();
    expect(events.map((event) => event.waitMs)).toEqual([WINDOW_MS]);
  });
});

describe('429 with a huge Retry-After (capped by maxRateLimitWaitMs)', () => {
  it.each([
    ['Retry-After: 86400', tooMany({ 'Retry-After': '86400', 'X-RateLimit-Limit': '200', 'X-RateLimit-Reset': '1900000000' })],
    ['extensions.retry_after: 86400 only', tooMany({}, { retry_after: 86_400, limit: 200, reset_at: 1_900_000_000 })],
  ])('%s: RateLimitError at once with the documented fields, nothing sent again', async (_case, action) => {
    server.script(action, answerOk);
    const { admin } = pacedClient({ maxRateLimitWaitMs: 120_000 });
    const { error, elapsedMs } = await failureOf(() => createCoupon.call(admin));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ operationType: 'mutations', limit: 200, resetAt: 1_900_000_000 });
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThanOrEqual(86_400_000);
    expect(server.log).toHaveLength(1);
    expect(elapsedMs).toBeLessThan(BOUNDED_MS); // it did not wait the day out
  });

  it('a wait just over maxRateLimitWaitMs is refused too; one under it is waited out', async () => {
    server.script(tooMany({ 'Retry-After': '1' }), answerOk);
    await expect(createCoupon.call(pacedClient({ maxRateLimitWaitMs: 999 }).admin)).rejects.toMatchObject({ name: 'RateLimitError', retryAfterMs: 1_000 });
    server.reset();
    server.script(tooMany({ 'Retry-After': '1' }), answerOk);
    await expect(createCoupon.call(pacedClient({ maxRateLimitWaitMs: 1_000 }).admin)).resolves.toBeDefined();
  });
});

describe('429 storm', () => {
  // The window "resets" now: every hint says the wait is over, the server still refuses.
  const resetAt = Math.floor(Date.now() / 1000);
  const storm = () => tooMany({ 'Retry-After': '0', 'X-RateLimit-Limit': '200', 'X-RateLimit-Reset': String(resetAt) });

  it('a storm that never ends: RateLimitError after maxRetries + 1 attempts, in bounded time; the mutation never executed', async () => {
    server.script(storm());
    const { admin, events } = pacedClient({ maxRetries: 3 });
    const { error, elapsedMs } = await failureOf(() => createCoupon.call(admin));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ operationType: 'mutations', limit: 200, resetAt, retryAfterMs: WINDOW_MS });
    expect(server.arrivals('createCoupon')).toBe(4);
    expect(events.map((event) => event.count)).toEqual([1, 2, 3]);
    expect(server.succeeded('createCoupon')).toBe(0);
    expect(elapsedMs).toBeLessThan(BOUNDED_MS);
  });

  it('ten concurrent calls in an endless storm: each ends in RateLimitError; attempts bounded by 10 x (maxRetries + 1)', async () => {
    server.script(storm());
    // Every 429 pauses the whole queue for at least the fallback (one window at most): a short window keeps 30 pauses short.
    const { admin } = pacedClient({ maxRetries: 3, limits: { mutations: { limit: 50, windowMs: 100 }, store: new MemoryPermitStore() } });
    const started = performance.now();
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? createCoupon : grantCoupon).call(admin)));
    expect(outcomes.every((outcome) => outcome.status === 'rejected' && outcome.reason instanceof RateLimitError)).toBe(true);
    expect(server.log.length).toBeLessThanOrEqual(10 * 4);
    expect(performance.now() - started).toBeLessThan(BOUNDED_MS);
  });

  it('a storm that passes: six concurrent mutations not safe to repeat all complete, each executed exactly once', async () => {
    server.script(firstThen(12, storm()));
    const { admin } = pacedClient({ maxRetries: 12 });
    const results = await Promise.all(Array.from({ length: 6 }, () => createCoupon.call(admin)));
    expect(results).toHaveLength(6);
    expect(server.log.filter((entry) => entry.status === 429)).toHaveLength(12);
    expect(server.succeeded('createCoupon')).toBe(6);
  });
});

/** Records when each request arrived and answers the first `count` with `first`, then normally. */
function timedFirstThen(count: number, first: FaultAction, arrivals: number[]): FaultStep {
  let seen = 0;
  return (request: RawRequest) => {
    arrivals.push(performance.now());
    seen += 1;
    return seen <= count ? first : answerOk(request);
  };
}
const gaps = (times: number[]): number[] => times.slice(1).map((time, index) => time - (times[index] as number));
const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);

describe('maxRateLimitWaitMs bounds the total 429 waiting of a call', () => {
  // Regression: the option capped each wait, not the call: at 1,500 ms with Retry-After: 1 on every
  // answer the call paused 1 s four times (about 3-4 s) before giving up.
  it('Retry-After: 1 on every answer with maxRateLimitWaitMs 1,500: the waits add up to at most 1,500 ms, then RateLimitError at once', async () => {
    server.script(tooMany({ 'Retry-After': '1' }));
    const admin = rateLimitClient({ maxRetries: 4, maxRateLimitWaitMs: 1_500 });
    const events: RateLimitedEvent[] = [];
    admin.on('rateLimited', (event) => events.push(event));
    const { error, elapsedMs } = await failureOf(() => createCoupon.call(admin));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(sum(events.map((event) => event.waitMs))).toBeLessThanOrEqual(1_500);
    expect(events.map((event) => event.waitMs)).toEqual([1_000]); // the next wait (2 s of backoff) would pass the allowance
    expect(server.arrivals('createCoupon')).toBe(2);
    expect(elapsedMs).toBeLessThan(BOUNDED_MS);
  });

  // Regression: each p-retry attempt started its own count, so 429s alternating with 503s on an
  // idempotent call added up 3 s of pauses against a 1 s cap.
  it('429 and 503 alternating on an idempotent call: the 429 waits of all attempts together stay within maxRateLimitWaitMs', async () => {
    let seen = 0;
    server.script(() => {
      seen += 1;
      return seen % 2 === 1 ? tooMany({ 'Retry-After': '1' }) : { kind: 'respond', status: 503, body: 'busy' };
    });
    const admin = rateLimitClient({ maxRetries: 4, maxRateLimitWaitMs: 1_000 });
    const events: RateLimitedEvent[] = [];
    admin.on('rateLimited', (event) => events.push(event));
    const { error } = await failureOf(() => grantCoupon.call(admin));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(sum(events.map((event) => event.waitMs))).toBeLessThanOrEqual(1_000);
  });

  it('a wait that fits the allowance left is waited out, and the call then succeeds', async () => {
    server.script(tooMany({ 'Retry-After': '1' }), answerOk);
    const admin = rateLimitClient({ maxRateLimitWaitMs: 1_000 });
    await expect(createCoupon.call(admin)).resolves.toBeDefined();
    expect(server.succeeded('createCoupon')).toBe(1);
  });
});

describe('no re-send ever comes sooner than the fallback backoff', () => {
  // Regression: a 429 without Retry-After whose X-RateLimit-Reset was in the past (clock skew)
  // meant a 0 ms wait: five re-sends 2 ms apart, then RateLimitError.
  it('X-RateLimit-Reset in the past (clock skew), no Retry-After: re-sends keep the doubling backoff (capped at one window)', async () => {
    const arrivals: number[] = [];
    const past = String(Math.floor(Date.now() / 1000) - 3_600);
    server.script(timedFirstThen(3, tooMany({ 'X-RateLimit-Reset': past }, { reset_at: Number(past) }), arrivals));
    const { admin, events } = pacedClient({ maxRetries: 4, limits: { mutations: { limit: 50, windowMs: 500 }, store: new MemoryPermitStore() } });
    await expect(createCoupon.call(admin)).resolves.toBeDefined();
    expect(events.map((event) => event.waitMs)).toEqual([500, 500, 500]);
    for (const gap of gaps(arrivals)) expect(gap).toBeGreaterThanOrEqual(480);
    expect(server.succeeded('createCoupon')).toBe(1);
  });

  it.each([
    ['Retry-After: 0', tooMany({ 'Retry-After': '0' })],
    ['extensions.retry_after: 0', tooMany({}, { retry_after: 0 })],
  ])('%s is never a 0 ms wait: the fallback backoff applies', async (_case, action) => {
    const arrivals: number[] = [];
    server.script(timedFirstThen(2, action, arrivals));
    const { admin, events } = pacedClient();
    await expect(createCoupon.call(admin)).resolves.toBeDefined();
    expect(events.map((event) => event.waitMs)).toEqual([WINDOW_MS, WINDOW_MS]);
    for (const gap of gaps(arrivals)) expect(gap).toBeGreaterThanOrEqual(WINDOW_MS - 20);
  });

  it('a server hint longer than the fallback is waited out as given', async () => {
    server.script(tooMany({ 'Retry-After': '1' }), answerOk);
    const { admin, events } = pacedClient();
    await expect(createCoupon.call(admin)).resolves.toBeDefined();
    expect(events.map((event) => event.waitMs)).toEqual([1_000]);
  });
});
