import { describe, expect, it } from 'vitest';
import type { ClientEventListener, ClientEventMap } from '../../../src/client/events/client-events.js';
import { ClientEvents } from '../../../src/client/events/client-events.js';
import { waitText, watchClientWaits, WaitWatch } from '../../../src/cli/support/wait-watch.js';

/** A clock the test moves, and a client whose events the test emits. */
function setup() {
  let now = 1_000;
  const events = new ClientEvents();
  const client = { on: <K extends keyof ClientEventMap>(name: K, listener: ClientEventListener<K>) => events.on(name, listener) };
  const watch = new WaitWatch({ now: () => now, timeoutMs: 30_000 });
  const stop = watchClientWaits(client, watch, { mutations: 60_000, queries: 60_000 });
  return { watch, events, stop, advance: (ms: number) => (now += ms), now: () => now };
}

const rateLimited = (waitMs: number): ClientEventMap['rateLimited'] => ({ callId: 'call_test', attempt: 1, operation: 'grantCoupon', operationType: 'mutations', waitMs, limit: 200, count: 1 });

describe('waits over ~2 s show their reason and the time left, counting down', () => {
  it('a 429 shows the server\'s wait, counting down', () => {
    const { watch, events, advance } = setup();
    events.emit('rateLimited', rateLimited(30_000));
    expect(waitText(watch.current() ?? fail(), 'long')).toBe('waiting, 30 s left: the server asked to wait (429, mutation rate limit)');
    advance(12_000);
    expect(waitText(watch.current() ?? fail(), 'long')).toBe('waiting, 18 s left: the server asked to wait (429, mutation rate limit)');
    expect(waitText(watch.current() ?? fail(), 'short')).toBe('wait 18 s: 429 rate limit');
    advance(18_000);
    expect(watch.current()).toBeUndefined();
  });
  it('waits of 2 s or less are not shown', () => {
    const { watch, events, advance } = setup();
    events.emit('rateLimited', { ...rateLimited(1_500) });
    expect(watch.current()).toBeUndefined();
    advance(1_600);
    events.emit('request', { callId: 'call_test', operation: 'grantCoupon', operationType: 'mutations', attempt: 1 });
    events.emit('response', { callId: 'call_test', operation: 'grantCoupon', operationType: 'mutations', attempt: 1, status: 200, durationMs: 40 });
    expect(watch.current()).toBeUndefined();
  });

  it('a request unanswered for more than 2 s: at most the rest of its timeout', () => {
    const { watch, events, advance } = setup();
    events.emit('request', { callId: 'call_test', operation: 'bulkCancelConsultingMeetings', operationType: 'mutations', attempt: 1 });
    advance(2_000);
    expect(watch.current()).toBeUndefined();
    advance(1_000);
    expect(waitText(watch.current() ?? fail(), 'long')).toBe('waiting, at most 27 s left: no answer from the server yet (a request gives up after 30 s)');
    events.emit('response', { callId: 'call_test', operation: 'bulkCancelConsultingMeetings', operationType: 'mutations', attempt: 1, status: 200, durationMs: 3_000 });
    expect(watch.current()).toBeUndefined();
  });

  it('a retry\'s backoff, once it has lasted 2 s: at most the longest backoff of that attempt', () => {
    const { watch, events, advance } = setup();
    events.emit('retry', { callId: 'call_test', operation: 'grantCoupon', attempt: 5, error: 'NetworkError', retriesLeft: 0 });
    advance(2_500);
    expect(waitText(watch.current() ?? fail(), 'long')).toBe('waiting, at most 6 s left: retrying after a NetworkError (attempt 5, 0 more allowed)');
  });

  it('stops listening when asked', () => {
    const { watch, events, stop } = setup();
    stop();
    events.emit('rateLimited', rateLimited(30_000));
    expect(watch.current()).toBeUndefined();
  });
});

describe('the client holding a call back for its budget (`waiting` event) shows its reason and the time the client expects', () => {
  const waiting = (event: Partial<ClientEventMap['waiting']>): ClientEventMap['waiting'] => ({
    callId: 'call_b',
    attempt: 1,
    operation: 'grantCoupon',
    operationType: 'mutations',
    priority: 'interactive',
    waitedMs: 1_000,
    expectedMs: 20_000,
    reason: 'budget',
    budget: { limit: 200, windowMs: 60_000, source: 'default' },
    ...event,
  });

  it('"budget": the key\'s budget is spent for now; the wait ends when that call\'s request goes', () => {
    const { watch, events, advance } = setup();
    advance(3_000);
    events.emit('waiting', waiting({}));
    expect(waitText(watch.current() ?? fail(), 'long')).toBe('waiting, 20 s left: the mutation rate limit (200 per 60 s, the documented default) is used up for now, by this or another client of the key; the next request goes when the window frees');
    advance(5_000);
    expect(waitText(watch.current() ?? fail(), 'medium')).toBe('waiting, 15 s left: rate limit');
    events.emit('request', { callId: 'call_b', operation: 'grantCoupon', operationType: 'mutations', attempt: 1 });
    expect(watch.current()).toBeUndefined();
  });

  it('"paused" and "learnt_limit" read as what they are; without an estimate, about one window', () => {
    const { watch, events, advance } = setup();
    advance(3_000);
    events.emit('waiting', waiting({ reason: 'paused', expectedMs: 9_000 }));
    expect(waitText(watch.current() ?? fail(), 'long')).toBe('waiting, 9 s left: every client of the key waits after a 429 (mutation rate limit), until the time the server named');
    events.emit('waiting', waiting({ callId: 'call_c', operationType: 'queries', reason: 'learnt_limit', expectedMs: undefined, budget: { limit: 60, windowMs: 10_000, source: 'server' } }));
    advance(9_000);
    expect(waitText(watch.current() ?? fail(), 'long')).toBe("waiting, 51 s left: the server's own query rate limit, 60 per 10 s (revealed by its 429s), is lower than the one assumed; requests go at its pace");
    expect(waitText(watch.current() ?? fail(), 'short')).toBe('wait 51 s: server 60/10s');
  });

  it('"budget" under the server\'s own figures names them, and the watch keeps them for the end of the run', () => {
    const { watch, events, advance } = setup();
    advance(3_000);
    events.emit('waiting', waiting({ budget: { limit: 30, windowMs: 5_100, source: 'server' } }));
    expect(waitText(watch.current() ?? fail(), 'long')).toBe("waiting, 20 s left: pacing at the server's own mutation rate limit, 30 per 5.1 s (revealed by its 429s); the next request goes when the window frees");
    expect(watch.serverBudget).toEqual({ limit: 30, windowMs: 5_100, source: 'server' });
  });

  it('not shown while other requests still go out (some calls wait, the job moves)', () => {
    const { watch, events, advance } = setup();
    advance(3_000);
    events.emit('request', { callId: 'call_a', operation: 'grantCoupon', operationType: 'mutations', attempt: 1 });
    events.emit('waiting', waiting({}));
    expect(watch.current()).toBeUndefined();
    advance(2_500);
    expect(watch.current()?.short).toBe('rate limit');
  });

  it('"unreachable": the server cannot be reached, with the error code; shown instead of the retry, even while other attempts come and go, at most its backoff', () => {
    const { watch, events, advance } = setup();
    events.emit('retry', { callId: 'call_b', operation: 'grantCoupon', attempt: 5, error: 'NetworkError', retriesLeft: 0 });
    advance(1_000);
    events.emit('waiting', waiting({ attempt: 5, reason: 'unreachable', networkCode: 'ECONNREFUSED', waitedMs: 1_000, expectedMs: 4_000 }));
    // Other calls' failed attempts keep the job busy; the unreachable server is still what holds it.
    events.emit('request', { callId: 'call_a', operation: 'grantCoupon', operationType: 'mutations', attempt: 1 });
    expect(waitText(watch.current() ?? fail(), 'short')).toBe('wait <=4 s: unreachable (ECONNREFUSED)');
    expect(waitText(watch.current() ?? fail(), 'long')).toBe('waiting, at most 4 s left: the server cannot be reached (ECONNREFUSED); the request is tried again (check ADMIN_API_URL)');
    events.emit('request', { callId: 'call_b', operation: 'grantCoupon', operationType: 'mutations', attempt: 5 });
    expect(watch.current()).toBeUndefined();
  });
});

function fail(): never {
  throw new Error('expected a wait');
}
