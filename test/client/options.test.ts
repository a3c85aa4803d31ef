import { describe, expect, it } from 'vitest';
import { AdminClient, InvalidInputError, SDK_VERSION } from '../../src/index.js';
import packageJson from '../../package.json' with { type: 'json' };
import { API_KEY, useScriptedAdminApi, testClient } from '../support/scripted-admin-api.js';
import { simulateWorkerScope } from './support/worker-scope.js';

const api = useScriptedAdminApi();

const create = (options: Record<string, unknown>) => () => new AdminClient({ apiKey: API_KEY, baseUrl: 'https://school.example', ...options } as never);

describe('client options', () => {
  it('sends a User-Agent naming the SDK and its version (plus the caller\'s suffix)', async () => {
    api.data({ __typename: 'Query' });
    await testClient({ userAgent: 'my-app/2.0' }).request('query { __typename }');
    expect(api.last.headers.get('user-agent')).toMatch(new RegExp(`^school-admin-sdk/${SDK_VERSION} node/v\\d+.* my-app/2\\.0$`));
    expect(SDK_VERSION).toBe(packageJson.version);
  });

  it('refuses an option AdminClient does not have, as withOptions() does, naming it and the option it was probably meant to be', () => {
    expect(create({ timeOutMs: 5 })).toThrow(expect.objectContaining({ name: 'InvalidInputError', operation: 'AdminClient', field: 'timeOutMs' }));
    expect(create({ timeOutMs: 5 })).toThrow('Failed to create the AdminClient: timeOutMs is not an option of AdminClient (did you mean timeoutMs?).');
    expect(create({ BaseURL: 'https://school.example' })).toThrow('BaseURL is not an option of AdminClient (did you mean baseUrl?)');
    expect(create({ colour: 'blue' })).toThrow(/^Failed to create the AdminClient: colour is not an option of AdminClient\.$/);
  });

  it('a userAgent with Latin-1 letters passes (a header carries them), and is sent as given', async () => {
    api.data({ __typename: 'Query' });
    await testClient({ userAgent: 'caf\u00e9-app/1.0' }).request('query { __typename }');
    expect(api.last.headers.get('user-agent')).toMatch(/ caf\u00e9-app\/1\.0$/);
  });

  it('posts to `${baseUrl}/admin/graphql` whatever trailing slash baseUrl has', async () => {
    api.data({ __typename: 'Query' });
    await testClient({ baseUrl: 'https://school.test/' }).request('query { __typename }');
    expect(api.last.url).toBe('https://school.test/admin/graphql');
  });

  it.each([
    ['a missing apiKey', { apiKey: '' }, 'apiKey'],
    ['a missing baseUrl', { baseUrl: undefined }, 'baseUrl'],
    ['a baseUrl that is not a URL', { baseUrl: 'school' }, 'baseUrl'],
    ['plain http to a non-loopback host', { baseUrl: 'http://school.example' }, 'baseUrl'],
    ['credentials in baseUrl', { baseUrl: 'https://user:pw@school.example' }, 'baseUrl'],
    ['a negative timeout', { timeoutMs: -1 }, 'timeoutMs'],
    ['a fractional limit', { limits: { mutations: { limit: 1.5 } } }, 'limits.mutations.limit'],
    ['a lease not longer than the timeout', { timeoutMs: 10_000, limits: { leaseMs: 10_000 } }, 'limits.leaseMs'],
    // A Redis client passed as it is (not in a RedisPermitStore) failed only at the first call.
    ['a store that is not a PermitStore (a Map)', { limits: { store: new Map() } }, 'limits.store'],
    ['a store that is a Redis client, not a RedisPermitStore', { limits: { store: { evalsha() {}, status: 'ready', isCluster: false, on() {} } } }, 'limits.store'],
    // Every option that becomes a header is checked like the key, by the rule a call's headers use.
    ['a userAgent with a line break', { userAgent: 'my-app/2.0\r\nX-Injected: 1' }, 'userAgent'],
    ['a userAgent with a NUL', { userAgent: 'my-app\u0000' }, 'userAgent'],
    ['a userAgent with BEL', { userAgent: 'my-app\u0007' }, 'userAgent'],
    ['a userAgent beyond Latin-1', { userAgent: 'my-app \u2603' }, 'userAgent'],
    ['a userAgent that is not a string', { userAgent: 2 }, 'userAgent'],
    ['a default header value with BEL', { headers: { 'X-App': 'a\u0007b' } }, 'headers.X-App'],
  ])('refuses %s with InvalidInputError naming the option', (_case, options, field) => {
    expect(create(options)).toThrow(InvalidInputError);
    try {
      create(options)();
    } catch (error) {
      expect(error).toMatchObject({ field });
      expect(JSON.stringify(error)).not.toContain(API_KEY);
    }
  });

  it('allows http to loopback hosts, and elsewhere only with allowInsecureHttp', () => {
    expect(create({ baseUrl: 'http://127.0.0.1:4000' })).not.toThrow();
    expect(create({ baseUrl: 'http://localhost:4000' })).not.toThrow();
    expect(create({ baseUrl: 'http://[::1]:4000' })).not.toThrow();
    expect(create({ baseUrl: 'http://school.internal', allowInsecureHttp: true })).not.toThrow();
  });

  it('refuses to run where a browser-like global exists unless dangerouslyAllowBrowser is set', () => {
    const scope = globalThis as { window?: unknown };
    scope.window = { document: {} };
    try {
      expect(create({})).toThrow(/browser/);
      expect(create({ dangerouslyAllowBrowser: true })).not.toThrow();
    } finally {
      delete scope.window;
    }
  });

  it('refuses to run in a browser\'s Web Worker too unless dangerouslyAllowBrowser is set', () => {
    // A browser worker: the global object is a WorkerGlobalScope and the user agent a browser's.
    const restore = simulateWorkerScope({ globalIsInstance: true, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/140.0' });
    try {
      expect(create({})).toThrow(/browser/);
      expect(create({ dangerouslyAllowBrowser: true })).not.toThrow();
    } finally {
      restore();
    }
  });
});
