import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminClient, type AdminClientOptions } from '../../src/index.js';
import { createSimulator, DEMO_API_KEY, DEMO_IDS, demoMemberEmail, seedDemoSchool } from '../../src/testing/index.js';
import { simulatorHandlers } from '../../src/testing/msw.js';
import { simulateWorkerScope } from './support/worker-scope.js';
import { listenOptions } from '../support/msw-listen.js';

const BASE_URL = 'https://school.msw.test';
const DATA = JSON.stringify({ data: { __typename: 'Query' } });

/** A fetch that, like workerd's, refuses to run as a method of another object ("Illegal invocation"). */
function strictFetch(calls: Array<{ url: string; body: string }>): typeof globalThis.fetch {
  return function fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    if (this !== undefined && this !== globalThis) return Promise.reject(new TypeError('Illegal invocation: function called with incorrect `this` reference.'));
    calls.push({ url: String(input), body: String(init?.body) });
    return Promise.resolve(new Response(DATA, { status: 200, headers: { 'content-type': 'application/json' } }));
  };
}

const client = (options: Partial<AdminClientOptions> = {}): AdminClient =>
  new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: BASE_URL, limits: false, maxRetries: 0, ...options });

describe('the browser guard refuses real browsers only', () => {
  it.each([
    ["Cloudflare's workerd (WorkerGlobalScope defined, the global object no instance of it)", { globalIsInstance: false, userAgent: 'Cloudflare-Workers' }],
    ["a Deno web worker (navigator.userAgent 'Deno/...')", { globalIsInstance: true, userAgent: 'Deno/2.9.6' }],
    ['a worker-like scope without a navigator', { globalIsInstance: true, userAgent: undefined }],
  ])('accepts %s without dangerouslyAllowBrowser', (_runtime, shape) => {
    const restore = simulateWorkerScope(shape);
    try {
      expect(() => client()).not.toThrow();
    } finally {
      restore();
    }
  });

  it("refuses a browser's worker (a WorkerGlobalScope instance with a Mozilla/5.0 user agent)", () => {
    const restore = simulateWorkerScope({ globalIsInstance: true, userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Safari/605.1.15' });
    try {
      expect(() => client()).toThrow(/browser/);
    } finally {
      restore();
    }
  });
});

describe('fetch is called unbound and resolved at request time', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  it('calls a custom fetch as a plain function (workerd throws "Illegal invocation" for a method call)', async () => {
    const calls: Array<{ url: string; body: string }> = [];
    await expect(client({ fetch: strictFetch(calls) }).request('query { __typename }')).resolves.toEqual({ __typename: 'Query' });
    expect(calls.map((call) => call.url)).toEqual([`${BASE_URL}/admin/graphql`]);
  });

  it('uses globalThis.fetch as it is at each request, not as it was when the client was created', async () => {
    const admin = client();
    const calls: Array<{ url: string; body: string }> = [];
    globalThis.fetch = strictFetch(calls);
    await expect(admin.request('query { __typename }')).resolves.toEqual({ __typename: 'Query' });
    expect(calls).toHaveLength(1);
  });

  it('still refuses at construction when no fetch exists at all', () => {
    (globalThis as { fetch?: unknown }).fetch = undefined;
    expect(() => client()).toThrow(/no fetch is available/);
  });
});

describe('msw: a client created before server.listen() is intercepted too', () => {
  it('grants a coupon through the simulator when the client was made at "module top level", before listen()', async () => {
    const simulator = createSimulator();
    seedDemoSchool(simulator);
    const admin = client();
    const server = setupServer(...simulatorHandlers(simulator, BASE_URL));
    server.listen(listenOptions('error'));
    try {
      const { grant, created } = await admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(7) });
      expect(created).toBe(true);
      expect(grant.userEmail).toBe(demoMemberEmail(7));
      expect(simulator.stats().requests.mutations).toBe(1);
    } finally {
      server.close();
    }
  });
});
