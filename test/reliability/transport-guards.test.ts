import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AdminClient, InvalidInputError, type AdminClientOptions } from '../../src/index.js';
import { API_KEY } from '../support/scripted-admin-api.js';

/** A fetch that records calls: a refused client must not have sent anything, ever. */
function recordingFetch(calls: string[]): typeof fetch {
  return async (input) => {
    calls.push(String(input));
    return new Response('{"data":{}}', { headers: { 'content-type': 'application/json' } });
  };
}

function construct(options: Partial<AdminClientOptions>): { error: unknown; calls: string[] } {
  const calls: string[] = [];
  try {
    new AdminClient({ apiKey: API_KEY, baseUrl: 'https://school.example', fetch: recordingFetch(calls), ...options } as AdminClientOptions);
    return { error: undefined, calls };
  } catch (error) {
    return { error, calls };
  }
}

function expectRefused(options: Partial<AdminClientOptions>, field: string): void {
  const { error, calls } = construct(options);
  expect(error).toBeInstanceOf(InvalidInputError);
  expect(error).toMatchObject({ field });
  expect(JSON.stringify(error)).not.toContain(API_KEY);
  expect((error as Error).message).not.toContain(API_KEY);
  expect(calls).toEqual([]);
}

describe('http to a non-loopback host is refused (the key would travel unencrypted)', () => {
  it.each([
    'http://localhost.evil.example',
    'http://127.0.0.1.nip.io',
    'http://evil.example#@127.0.0.1',
    'http://evil.example/?@localhost',
    'http://evil.example:80/127.0.0.1',
    'HTTP://SCHOOL.EXAMPLE',
    'http://10.0.0.5:8080',
    'http://[::ffff:8.8.8.8]',
    'http://0.0.0.0:4000',
  ])('%s', (baseUrl) => {
    expectRefused({ baseUrl }, 'baseUrl');
  });

  it.each(['ftp://school.example', 'ws://127.0.0.1', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,hi'])('a non-HTTP scheme: %s', (baseUrl) => {
    expectRefused({ baseUrl }, 'baseUrl');
  });

  it('property: any http URL whose host is a public-looking domain is refused; its https form is accepted', () => {
    const domain = fc.domain().filter((name) => name !== 'localhost');
    fc.assert(
      fc.property(domain, fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }), (host, port) => {
        const authority = port === undefined ? host : `${host}:${port}`;
        expectRefused({ baseUrl: `http://${authority}` }, 'baseUrl');
        expect(construct({ baseUrl: `https://${authority}` }).error).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['the string "true"', 'true'],
    ['1', 1],
    ['an object', {}],
  ])('allowInsecureHttp must be exactly true: %s does not unlock http', (_case, value) => {
    expectRefused({ baseUrl: 'http://school.internal', allowInsecureHttp: value as never }, 'baseUrl');
  });

  it('credentials in the URL are refused even on loopback (they would be sent along)', () => {
    expectRefused({ baseUrl: 'http://user:secret@127.0.0.1:4000' }, 'baseUrl');
  });
});

describe('the browser guard holds', () => {
  function inBrowser<T>(body: () => T): T {
    const scope = globalThis as { window?: unknown };
    scope.window = { document: {} };
    try {
      return body();
    } finally {
      delete scope.window;
    }
  }

  it.each([
    ['not set', undefined],
    ['the string "true"', 'true'],
    ['1', 1],
    ['false', false],
  ])('where window.document exists, dangerouslyAllowBrowser %s refuses the client before anything is sent', (_case, value) => {
    inBrowser(() => expectRefused(value === undefined ? {} : { dangerouslyAllowBrowser: value as never }, 'dangerouslyAllowBrowser'));
  });

  it('the guard is checked before the URL: a browser with a valid https baseUrl is still refused', () => {
    inBrowser(() => expectRefused({ baseUrl: 'https://school.example' }, 'dangerouslyAllowBrowser'));
  });

  it('only dangerouslyAllowBrowser: true lets it through', () => {
    inBrowser(() => expect(construct({ dangerouslyAllowBrowser: true }).error).toBeUndefined());
  });
});
