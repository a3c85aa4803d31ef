import { describe, expect, it } from 'vitest';
import type { ClientEventListener, ClientEventMap } from '../../../src/client/client-events.js';
import { ClientEvents } from '../../../src/client/client-events.js';
import { waitText, watchBudgetWaits, watchClientWaits, WaitWatch } from '../../../src/cli/support/wait-watch.js';

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
  it('a 429 shows the server\'s wait; then, whenever the job stalls, the client\'s holding back (at most one window more)', () => {
    const { watch, events, advance } = setup();
    events.emit('rateLimited', rateLimited(30_000));
    expect(waitText(watch.current() ?? fail(), 'long')).toBe('waiting, 30 s left: the server asked to wait (429, mutation rate limit)');
    advance(12_000);
    expect(waitText(watch.current() ?? fail(), 'long')).toBe('waiting, 18 s left: the server asked to wait (429, mutation rate limit)');
    expect(waitText(watch.current() ?? fail(), 'short')).toBe('wait 18 s: 429 rate limit');
    advance(20_000);
    expect(waitText(watch.current() ?? fail(), 'long')).toBe("waiting, at most 58 s left: after a 429 the client sends mutations more slowly (another client is using the same key's budget)");
    // Requests go out again: nothing to show while they move.
    events.emit('request', { callId: 'call_test', operation: 'grantCoupon', operationType: 'mutations', attempt: 1 });
    events.emit('response', { callId: 'call_test', operation: 'grantCoupon', operationType: 'mutations', attempt: 1, status: 200, durationMs: 40 });
    expect(watch.current()).toBeUndefined();
    advance(3_000);
    expect(waitText(watch.current() ?? fail(), 'medium')).toBe('waiting, at most 55 s left: rate limit (shared)');
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

  it('the command\'s own rate limit: once `limit` answers fall in one window, the next waits for the oldest to leave it', () => {
    const { watch, events, advance, now } = setup();
    const budget = watchBudgetWaits(watch, { limit: 3, windowMs: 10_000 }, now);
    budget.answered();
    advance(1_000);
    budget.answered();
    expect(watch.current()).toBeUndefined();
    advance(1_000);
    budget.answered();
    events.emit('response', { callId: 'call_test', operation: 'grantCoupon', operationType: 'mutations', attempt: 1, status: 200, durationMs: 40 });
    // Shown once nothing has moved for 2 s.
    expect(watch.current()).toBeUndefined();
    advance(2_500);
    expect(waitText(watch.current() ?? fail(), 'long')).toBe('waiting, 6 s left: the rate limit of 3 requests per 10 s is used up; the next request goes when the oldest leaves the window');
    advance(5_500);
    expect(watch.current()).toBeUndefined();
  });

  it('stops listening when asked', () => {
    const { watch, events, stop } = setup();
    stop();
    events.emit('rateLimited', rateLimited(30_000));
    expect(watch.current()).toBeUndefined();
  });
});

function fail(): never {
  throw new Error('expected a wait');
}
