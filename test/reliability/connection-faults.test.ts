import { describe, expect, it } from 'vitest';
import { HttpError, NetworkError, TimeoutError, type RetryEvent } from '../../src/index.js';
import { answerOk, failureOf, faultClient, IDEMPOTENT_CASES, operationCase, UNSAFE_CASES } from './support/operation-cases.js';
import { BOUNDED_MS, useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connection reset before the server read the request', () => {
  it.each(UNSAFE_CASES.map((item) => [item.method, item] as const))(
    '%s (not safe to repeat): NetworkError { mayHaveReachedServer: true }, sent once',
    async (_method, item) => {
      server.script({ kind: 'reset-before-read' }, answerOk);
      const { error, elapsedMs } = await failureOf(() => item.call(faultClient(server)));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ mayHaveReachedServer: true });
      expect(server.log).toHaveLength(1);
      expect(elapsedMs).toBeLessThan(BOUNDED_MS);
    },
  );

  it('an idempotent mutation (grantCoupon) is sent again and succeeds once the server answers', async () => {
    server.script({ kind: 'reset-before-read' }, { kind: 'reset-before-read' }, answerOk);
    const admin = faultClient(server);
    const retries: RetryEvent[] = [];
    admin.on('retry', (event) => retries.push(event));
    await expect(operationCase('createCouponGrant').call(admin)).resolves.toMatchObject({ created: true });
    expect(server.log.map((entry) => entry.action)).toEqual(['reset-before-read', 'reset-before-read', 'respond']);
    expect(retries.map((event) => event.error)).toEqual(['NetworkError', 'NetworkError']);
  });
});

describe('connection reset after the server read the whole request (executed, answer lost)', () => {
  it.each(UNSAFE_CASES.map((item) => [item.method, item] as const))(
    '%s (not safe to repeat): NetworkError { mayHaveReachedServer: true }, arrived exactly once',
    async (_method, item) => {
      server.script({ kind: 'reset-after-read' }, answerOk);
      const { error, elapsedMs } = await failureOf(() => item.call(faultClient(server)));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ mayHaveReachedServer: true, operation: item.method });
      expect(server.arrivals(item.field)).toBe(1);
      expect(elapsedMs).toBeLessThan(BOUNDED_MS);
    },
  );

  it.each(IDEMPOTENT_CASES.map((item) => [item.method, item] as const))(
    '%s (safe to repeat): retried, and resolves when the server recovers',
    async (_method, item) => {
      server.script({ kind: 'reset-after-read' }, answerOk);
      await expect(item.call(faultClient(server))).resolves.toBeDefined();
      expect(server.arrivals(item.field)).toBe(2);
      expect(server.succeeded(item.field)).toBe(1);
    },
  );

  it('an idempotent mutation against a server that always resets: NetworkError after maxRetries + 1 attempts, in bounded time', async () => {
    server.script({ kind: 'reset-after-read' });
    const { error, elapsedMs } = await failureOf(() => operationCase('createCouponGrant').call(faultClient(server, { maxRetries: 3 })));
    expect(error).toBeInstanceOf(NetworkError);
    expect(server.arrivals('createCouponGrant')).toBe(4);
    expect(elapsedMs).toBeLessThan(BOUNDED_MS);
  });
});

describe('no response until the timeout', () => {
  it.each(UNSAFE_CASES.map((item) => [item.method, item] as const))(
    '%s (not safe to repeat): TimeoutError after timeoutMs, arrived exactly once',
    async (_method, item) => {
      server.script({ kind: 'hang' }, answerOk);
      const { error, elapsedMs } = await failureOf(() => item.call(faultClient(server, { timeoutMs: 200 })));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ timeoutMs: 200, mayHaveReachedServer: true });
      expect(elapsedMs).toBeGreaterThanOrEqual(190);
      expect(elapsedMs).toBeLessThan(BOUNDED_MS);
      await sleep(100); // nothing is sent after the call has settled either
      expect(server.arrivals(item.field)).toBe(1);
    },
  );

  it('an idempotent mutation (rateMeeting) that hangs is retried and resolves when the server recovers', async () => {
    server.script({ kind: 'hang' }, answerOk);
    await expect(operationCase('rateConsultingMeeting').call(faultClient(server, { timeoutMs: 200 }))).resolves.toMatchObject({ userId: 'user-1' });
    expect(server.arrivals('rateConsultingMeeting')).toBe(2);
  });

  it('a server that never answers: TimeoutError after maxRetries + 1 attempts of timeoutMs each, in bounded time', async () => {
    server.script({ kind: 'hang' });
    const { error, elapsedMs } = await failureOf(() => operationCase('updateCoupon').call(faultClient(server, { timeoutMs: 200, maxRetries: 2 })));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.arrivals('updateCoupon')).toBe(3);
    expect(elapsedMs).toBeGreaterThanOrEqual(3 * 190);
    expect(elapsedMs).toBeLessThan(BOUNDED_MS);
  });

  it('a response whose headers arrive but whose body stalls past timeoutMs is a TimeoutError too (the timeout covers the whole body)', async () => {
    const body = JSON.stringify({ data: operationCase('createCoupon').data });
    server.script({ kind: 'truncate', status: 200, body, keepBytes: 20, framing: 'content-length', ending: 'stall' }, answerOk);
    const { error } = await failureOf(() => operationCase('createCoupon').call(faultClient(server, { timeoutMs: 200 })));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.arrivals('createCoupon')).toBe(1);
  });
});

describe('502/503/504 with HTML bodies (a proxy failing)', () => {
  const html = (status: number) => ({ kind: 'respond' as const, status, headers: { 'Content-Type': 'text/html' }, body: `<html><body><h1>${status} Bad Gateway</h1><p>nginx</p></body></html>` });

  it.each([502, 503, 504])('HTTP %i on a mutation not safe to repeat (createCoupon): HttpError { status }, arrived once', async (status) => {
    server.script(html(status), answerOk);
    const { error } = await failureOf(() => operationCase('createCoupon').call(faultClient(server)));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status, operation: 'createCoupon' });
    expect((error as Error).message).not.toContain('<html>');
    expect(server.arrivals('createCoupon')).toBe(1);
  });

  it.each([502, 503, 504])('HTTP %i on an idempotent mutation (grantCoupon): retried until the server recovers', async (status) => {
    server.script(html(status), html(status), answerOk);
    await expect(operationCase('createCouponGrant').call(faultClient(server))).resolves.toMatchObject({ created: true });
    expect(server.arrivals('createCouponGrant')).toBe(3);
  });

  it('a proxy failing for good: HttpError after maxRetries + 1 attempts, in bounded time', async () => {
    server.script(html(503));
    const { error, elapsedMs } = await failureOf(() => operationCase('updateConsultingService').call(faultClient(server, { maxRetries: 3 })));
    expect(error).toMatchObject({ name: 'HttpError', status: 503 });
    expect(server.arrivals('updateConsultingService')).toBe(4);
    expect(elapsedMs).toBeLessThan(BOUNDED_MS);
  });

  it('HTTP 500 is not retried even for an idempotent mutation (only 502/503/504 are transient)', async () => {
    server.script(html(500), answerOk);
    await expect(operationCase('createCouponGrant').call(faultClient(server))).rejects.toMatchObject({ name: 'HttpError', status: 500 });
    expect(server.arrivals('createCouponGrant')).toBe(1);
  });
});
