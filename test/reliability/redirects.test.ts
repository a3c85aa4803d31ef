import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { AdminClient, HttpError, MemoryPermitStore, RedirectError } from '../../src/index.js';
import { refusedPort } from '../support/refused-port.js';
import { API_KEY } from '../support/scripted-admin-api.js';
import type { FaultAction } from './support/fault-server.js';
import { answerOk, failureOf, faultClient, operationCase } from './support/operation-cases.js';
import { useFaultServer } from './support/use-fault-server.js';

/** The school's server (baseUrl) and another origin a hostile redirect points to. */
const school = useFaultServer();
const elsewhere = useFaultServer();

const createCoupon = operationCase('createCoupon');
const grantCoupon = operationCase('createCouponGrant');

/** A redirect whose target carries credentials, a path and a token: none of it may show. */
function redirectTo(status: number, target: string): FaultAction {
  return { kind: 'respond', status, headers: { Location: target, 'Content-Type': 'text/html' }, body: '<a href="elsewhere">moved</a>' };
}
const hostileTarget = (origin: string): string => origin.replace('http://', 'http://admin:hunter2@') + '/admin/graphql?token=tok_123456';

describe('redirects are never followed', () => {
  // Regression: fetch followed redirects. 301-303 turned the POST into a GET and the call resolved
  // with the other origin's JSON as if it were the created coupon; 307/308 re-sent the POST with
  // X-Service-API-Key to the other origin.
  it.each([301, 302, 303, 307, 308])('HTTP %i to another origin: RedirectError with the status and the target origin only; arrived once; nothing reaches the other origin', async (status) => {
    school.script(redirectTo(status, hostileTarget(elsewhere.url)));
    elsewhere.script(answerOk);
    const { error } = await failureOf(() => createCoupon.call(faultClient(school)));
    expect(elsewhere.log).toHaveLength(0); // the key went nowhere else
    expect(school.arrivals('createCoupon')).toBe(1);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toBeInstanceOf(HttpError); // existing `instanceof HttpError` handling keeps working
    expect(error).toMatchObject({ status, redirectOrigin: elsewhere.url });
    const shown = [(error as Error).message, (error as Error).stack ?? '', JSON.stringify(error), inspect(error, { depth: 10 })].join('\n');
    for (const secret of ['hunter2', 'admin:', 'tok_123456', '/admin/graphql?', API_KEY]) expect(shown).not.toContain(secret);
  });

  it('an idempotent mutation is not re-sent after a redirect either (it is not a transient failure)', async () => {
    school.script(redirectTo(307, `${elsewhere.url}/admin/graphql`));
    elsewhere.script(answerOk);
    const { error } = await failureOf(() => grantCoupon.call(faultClient(school, { maxRetries: 4 })));
    expect(error).toBeInstanceOf(RedirectError);
    expect(school.arrivals('createCouponGrant')).toBe(1);
    expect(elsewhere.log).toHaveLength(0);
  });

  // Regression: a 307 loop made one createCoupon arrive 21 times while the limiter counted 1.
  it('a 307 loop to itself: createCoupon arrives once and the limiter counts one request', async () => {
    school.script(redirectTo(307, `${school.url}/admin/graphql`));
    const admin = faultClient(school, { limits: { mutations: { limit: 50, windowMs: 1_000 }, store: new MemoryPermitStore() } });
    let requests = 0;
    admin.on('request', () => (requests += 1));
    const { error } = await failureOf(() => createCoupon.call(admin));
    expect(school.arrivals('createCoupon')).toBe(1);
    expect(requests).toBe(1);
    expect(error).toMatchObject({ name: 'RedirectError', status: 307, redirectOrigin: school.url });
  });

  // Regression: a 307 to a refused port delivered createCoupon 4 times (the refused connection was
  // "never reached", so retried) and reported mayHaveReachedServer: false.
  it('a 307 to a refused port: arrived once, RedirectError (not a NetworkError that "never reached the server")', async () => {
    const port = await refusedPort();
    school.script(redirectTo(307, `http://127.0.0.1:${port}/admin/graphql`));
    const { error } = await failureOf(() => createCoupon.call(faultClient(school, { maxRetries: 3 })));
    expect(school.arrivals('createCoupon')).toBe(1);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status: 307, redirectOrigin: `http://127.0.0.1:${port}` });
  });

  it('a redirect without a usable Location: RedirectError with no origin', async () => {
    school.script({ kind: 'respond', status: 302, headers: {}, body: '' });
    const { error } = await failureOf(() => createCoupon.call(faultClient(school)));
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as RedirectError).redirectOrigin).toBeUndefined();
  });
});

describe('redirects through a custom fetch', () => {
  function recordingFetch(answer: () => Response): { fetch: typeof globalThis.fetch; calls: RequestInit[] } {
    const calls: RequestInit[] = [];
    return {
      calls,
      fetch: async (_input, init) => {
        calls.push(init ?? {});
        return answer();
      },
    };
  }

  // Regression: the allowInsecureHttp guard checked only baseUrl, so `308 Location: http://...`
  // from an https base URL sent the key in clear.
  it('an https baseUrl answered by 308 to plain http: RedirectError, one fetch, asked with redirect: "manual"', async () => {
    const { fetch, calls } = recordingFetch(() => new Response(null, { status: 308, headers: { location: 'http://school.example/admin/graphql' } }));
    const admin = new AdminClient({ apiKey: API_KEY, baseUrl: 'https://school.example', limits: false, fetch });
    const { error } = await failureOf(() => createCoupon.call(admin));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.redirect).toBe('manual');
    expect(error).toMatchObject({ name: 'RedirectError', status: 308, redirectOrigin: 'http://school.example' });
  });

  it('an opaque redirect (browser-like fetch: type "opaqueredirect", status 0): RedirectError, one fetch', async () => {
    const opaque = { type: 'opaqueredirect', status: 0, ok: false, statusText: '', redirected: false, headers: new Headers(), body: null, text: async () => '' } as unknown as Response;
    const { fetch, calls } = recordingFetch(() => opaque);
    const admin = new AdminClient({ apiKey: API_KEY, baseUrl: 'https://school.example', limits: false, maxRetries: 3, fetch });
    const { error } = await failureOf(() => grantCoupon.call(admin));
    expect(calls).toHaveLength(1);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status: 0, redirectOrigin: undefined });
  });
});
