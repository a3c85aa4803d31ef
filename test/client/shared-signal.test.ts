import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AdminClient } from '../../src/index.js';

const GRANTED = JSON.stringify({
  data: { createCouponGrant: { grant: { id: 'g', status: 'granted', userName: null, userEmail: null, grantedByName: null, grantedAt: 1, redeemedAt: null, revokedAt: null }, created: true, errors: null } },
});

/** A server that answers only when told to (requests stay in flight meanwhile), or never when aborted. */
function heldServer() {
  const release: Array<() => void> = [];
  const fetchHeld: typeof fetch = (_input, init) =>
    new Promise((resolve, reject) => {
      init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      release.push(() => resolve(new Response(GRANTED, { status: 200, headers: { 'content-type': 'application/json' } })));
    });
  return { fetch: fetchHeld, answerAll: () => release.splice(0).forEach((answer) => answer()) };
}

let warnings: Error[] = [];
const onWarning = (warning: Error): void => {
  warnings.push(warning);
};
beforeEach(() => {
  warnings = [];
  process.on('warning', onWarning);
});
afterEach(() => {
  process.off('warning', onWarning);
});

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

describe('one AbortSignal shared by many concurrent calls (a batch with one controller)', () => {
  it('30 calls, 5 in flight and 25 queued: one listener on the signal, no MaxListenersExceededWarning; aborting it rejects all 30', async () => {
    const server = heldServer();
    const admin = new AdminClient({ apiKey: 'sk_live_shared_signal_abort', baseUrl: 'https://school.example', fetch: server.fetch, maxRetries: 0, limits: { mutations: { limit: 5, windowMs: 60_000 } } });
    const controller = new AbortController();
    const calls = Array.from({ length: 30 }, (_, index) => admin.grantCoupon('coupon-1', { userId: `user-${index}` }, { signal: controller.signal }).then(() => 'granted', () => 'rejected'));
    await settle();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort(new Error('batch cancelled'));
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 30 }, () => 'rejected'));
    await settle();
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('calls that finish take their handlers with them: no listener left on the signal', async () => {
    const server = heldServer();
    const admin = new AdminClient({ apiKey: 'sk_live_shared_signal_finish', baseUrl: 'https://school.example', fetch: server.fetch, limits: { mutations: { limit: 20, windowMs: 60_000 } } });
    const controller = new AbortController();
    const calls = Array.from({ length: 15 }, (_, index) => admin.grantCoupon('coupon-1', { userId: `user-${index}` }, { signal: controller.signal }));
    await settle();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    server.answerAll();
    await Promise.all(calls);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
