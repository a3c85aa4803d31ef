import { describe, expect, it } from 'vitest';
import { MemoryPermitStore, type AdminClient, type CallEvent, type ClientEventMap, type Logger } from '../../src/index.js';
import type { FaultStep } from '../reliability/support/fault-server.js';
import { answerOk, faultClient, json, operationCase } from '../reliability/support/operation-cases.js';
import { useFaultServer } from '../reliability/support/use-fault-server.js';

const server = useFaultServer();

const CALL_ID = /^call_[0-9a-f]{10}_[0-9a-z]+$/;
const grantCoupon = operationCase('createCouponGrant');
const tooMany = json({ errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMIT_EXCEEDED', operation_type: 'mutations' } }] }, 429);
const unavailable: FaultStep = { kind: 'respond', status: 503, body: 'busy' };

type Recorded = { [K in keyof ClientEventMap]: { kind: K } & ClientEventMap[K] }[keyof ClientEventMap];

/** Every event of every kind the client emits, in order. */
function record(admin: AdminClient): Recorded[] {
  const events: Recorded[] = [];
  admin.on('request', (event) => events.push({ kind: 'request', ...event }));
  admin.on('response', (event) => events.push({ kind: 'response', ...event }));
  admin.on('rateLimited', (event) => events.push({ kind: 'rateLimited', ...event }));
  admin.on('retry', (event) => events.push({ kind: 'retry', ...event }));
  return events;
}

/** A client pacing under a 100 ms window (so a 429's fallback wait is 100 ms), with its own store. */
const pacedClient = (options: Parameters<typeof faultClient>[1] = {}) =>
  faultClient(server, { limits: { mutations: { limit: 50, windowMs: 100 }, store: new MemoryPermitStore() }, ...options });

describe('events carry the call id and the attempt', () => {
  it('every event kind of one call carries the same call id; the attempt counts every request sent (429 re-sends and retries alike)', async () => {
    server.script(tooMany, unavailable, answerOk);
    const admin = pacedClient();
    const events = record(admin);
    await grantCoupon.call(admin);
    expect(events.map((event) => [event.kind, event.attempt])).toEqual([
      ['request', 1],
      ['response', 1],
      ['rateLimited', 1],
      ['request', 2],
      ['response', 2],
      ['retry', 3],
      ['request', 3],
      ['response', 3],
    ]);
    const ids = new Set(events.map((event: CallEvent) => event.callId));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(CALL_ID);
    expect(server.arrivals('createCouponGrant')).toBe(3);
  });

  it('concurrent calls get distinct ids, and each call\'s request and response share its id', async () => {
    server.script(answerOk);
    const admin = faultClient(server);
    const events = record(admin);
    await Promise.all(Array.from({ length: 12 }, () => grantCoupon.call(admin)));
    const requests = events.filter((event) => event.kind === 'request');
    const responses = events.filter((event) => event.kind === 'response');
    expect(new Set(requests.map((event) => event.callId)).size).toBe(12);
    expect(new Set(responses.map((event) => event.callId))).toEqual(new Set(requests.map((event) => event.callId)));
  });

  it('ids are unique within the process across clients (one sequence for every client)', async () => {
    server.script(answerOk);
    const first = faultClient(server);
    const second = faultClient(server);
    const ids: string[] = [];
    for (const admin of [first, second]) admin.on('request', (event) => ids.push(event.callId));
    await grantCoupon.call(first);
    await grantCoupon.call(second);
    await first.request('query { __typename }');
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(CALL_ID);
  });

  it('a bulk call sent in chunks makes one call per chunk, each with its own id', async () => {
    server.script(answerOk);
    const admin = faultClient(server, { bulkChunkSize: 1 });
    const events = record(admin);
    await admin.bulkCancelMeetings(['m-1', 'm-2']);
    const requests = events.filter((event) => event.kind === 'request');
    expect(requests.map((event) => event.attempt)).toEqual([1, 1]);
    expect(new Set(requests.map((event) => event.callId)).size).toBe(2);
  });
});

describe('the logger prints the call id', () => {
  it('every line names the call id of its event, at every level', async () => {
    server.script(tooMany, unavailable, answerOk);
    const lines: { message: string; data: Record<string, unknown> | undefined }[] = [];
    const at = (message: string, data?: Record<string, unknown>) => lines.push({ message, data });
    const logger: Logger = { debug: at, info: at, warn: at, error: at };
    const admin = pacedClient({ logger, logLevel: 'debug' });
    const ids: string[] = [];
    admin.on('request', (event) => ids.push(event.callId));
    await grantCoupon.call(admin);
    expect(lines).toHaveLength(8);
    const [id] = ids;
    for (const line of lines) {
      expect(line.message).toContain(`[${id}]`);
      expect(line.data).toMatchObject({ callId: id, attempt: expect.any(Number) });
    }
  });
});
