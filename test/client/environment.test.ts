import { inspect } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AdminClient, InvalidInputError } from '../../src/index.js';
import { environmentVariable } from '../../src/client/options/environment.js';
import { API_KEY } from '../support/scripted-admin-api.js';
import { answerOk, operationCase } from '../reliability/support/operation-cases.js';
import { useFaultServer } from '../reliability/support/use-fault-server.js';

const server = useFaultServer();
const grantCoupon = operationCase('createCouponGrant');

/** Sets (a string) or removes (undefined) the two variables for one test. */
function environment(key: string | undefined, url: string | undefined): void {
  for (const [name, value] of [['ADMIN_API_KEY', key], ['ADMIN_API_URL', url]] as const) {
    if (value === undefined) vi.stubEnv(name, undefined);
    else vi.stubEnv(name, value);
  }
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

/** What `new AdminClient(options)` threw (the test fails if it did not throw). */
function refusal(options?: ConstructorParameters<typeof AdminClient>[0]): InvalidInputError {
  try {
    new AdminClient(options);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInputError);
    return error as InvalidInputError;
  }
  throw new Error('expected the constructor to throw');
}

describe('apiKey and baseUrl default to ADMIN_API_KEY and ADMIN_API_URL', () => {
  it('new AdminClient() reads both: the request goes to ADMIN_API_URL with ADMIN_API_KEY', async () => {
    environment(API_KEY, server.url);
    server.script(answerOk);
    await grantCoupon.call(new AdminClient());
    await grantCoupon.call(new AdminClient({ limits: false }));
    expect(server.log.map((entry) => entry.request?.headers['x-service-api-key'])).toEqual([API_KEY, API_KEY]);
  });

  it('values are trimmed (a key read from a file ends with a line break)', async () => {
    environment(`${API_KEY}\n`, ` ${server.url}\n`);
    server.script(answerOk);
    await grantCoupon.call(new AdminClient());
    expect(server.log[0]?.request?.headers['x-service-api-key']).toBe(API_KEY);
  });

  it('options win over the environment', async () => {
    environment('sk_live_from_the_environment', 'https://elsewhere.example');
    server.script(answerOk);
    await grantCoupon.call(new AdminClient({ apiKey: API_KEY, baseUrl: server.url }));
    expect(server.log[0]?.request?.headers['x-service-api-key']).toBe(API_KEY);
  });

  it.each<[string, string | undefined, string | undefined, Record<string, string>, string, RegExp[]]>([
    ['neither apiKey nor ADMIN_API_KEY', undefined, 'https://school.example', {}, 'apiKey', [/pass apiKey/, /ADMIN_API_KEY environment variable/]],
    ['a blank ADMIN_API_KEY counts as none', '  ', 'https://school.example', {}, 'apiKey', [/ADMIN_API_KEY/]],
    ['neither baseUrl nor ADMIN_API_URL', API_KEY, undefined, {}, 'baseUrl', [/pass baseUrl/, /ADMIN_API_URL environment variable/]],
    ['neither pair: the key first, saying the URL is missing too', undefined, undefined, {}, 'apiKey', [/ADMIN_API_KEY/, /baseUrl is missing too/, /ADMIN_API_URL/]],
    ['only baseUrl given, no key anywhere', undefined, undefined, { baseUrl: 'https://school.example' }, 'apiKey', [/ADMIN_API_KEY/]],
  ])('%s: one InvalidInputError naming the option and the variable', (_case, key, url, options, field, messages) => {
    environment(key, url);
    const error = refusal(options);
    expect(error.field).toBe(field);
    for (const message of messages) expect(error.message).toMatch(message);
    expect(error.message).toMatch(/^Failed to create the AdminClient: /);
  });

  it('a key read from ADMIN_API_KEY that a header cannot carry is refused naming the variable, never echoing the key', () => {
    const key = 'sk_live_env_secret\u0007tail';
    environment(key, 'https://school.example');
    const error = refusal();
    expect(error.field).toBe('apiKey');
    expect(error.message).toContain('it was read from ADMIN_API_KEY');
    for (const text of [error.message, error.stack ?? '', JSON.stringify(error), inspect(error)]) {
      expect(text).not.toContain('env_secret');
      expect(text).not.toContain('tail');
    }
  });

  it('an unusable ADMIN_API_URL is refused naming the variable', () => {
    environment(API_KEY, 'school dot example');
    const error = refusal();
    expect(error.field).toBe('baseUrl');
    expect(error.message).toContain('baseUrl is not a valid URL');
    expect(error.message).toContain('(it was read from ADMIN_API_URL)');
    environment(API_KEY, 'http://school.example');
    expect(refusal().message).toContain('(it was read from ADMIN_API_URL)');
  });
});

describe('runtimes without process.env (edge runtimes, Deno without --allow-env)', () => {
  it('no process at all: nothing is read and nothing throws; options work as before', () => {
    vi.stubGlobal('process', undefined);
    let read: unknown = 'not read';
    let client: unknown;
    try {
      read = environmentVariable('ADMIN_API_KEY');
      // Pacing off: naming the limiter's bucket needs node:crypto (src/rate-limit, not this test's subject).
      client = new AdminClient({ apiKey: API_KEY, baseUrl: 'https://school.example', limits: false });
    } finally {
      vi.unstubAllGlobals();
    }
    expect(read).toBeUndefined();
    expect(client).toBeInstanceOf(AdminClient);
  });

  it('a process without env: the options are required, and the refusal names the option and the variable', () => {
    vi.stubGlobal('process', Object.create(process, { env: { value: undefined } }));
    let error: unknown;
    try {
      new AdminClient();
    } catch (caught) {
      error = caught;
    } finally {
      vi.unstubAllGlobals();
    }
    expect(error).toMatchObject({ name: 'InvalidInputError', field: 'apiKey', message: expect.stringContaining('ADMIN_API_KEY') });
  });

  it('a process.env that throws when read is treated as empty', () => {
    vi.stubGlobal('process', {
      version: process.version,
      get env(): never {
        throw new Error('PermissionDenied: requires env access');
      },
    });
    try {
      expect(environmentVariable('ADMIN_API_KEY')).toBeUndefined();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
