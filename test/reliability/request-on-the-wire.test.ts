import { describe, expect, it } from 'vitest';
import { OPERATIONS, SDK_VERSION } from '../../src/index.js';
import { API_KEY } from '../support/scripted-admin-api.js';
import { answerOk, faultClient, OPERATION_CASES } from './support/operation-cases.js';
import type { RawRequest } from './support/raw-http.js';
import { useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer((started) => started.script(answerOk));

function onlyRequest(): RawRequest {
  expect(server.log).toHaveLength(1);
  const request = server.log[0]?.request;
  if (request === undefined) throw new Error('no request was read');
  return request;
}

/**
 * What a GraphQL-over-HTTP server receives from one attempt (spec: "POST baseUrl/admin/graphql",
 * the key in X-Service-API-Key), read off a raw socket. The transport is a plain fetch POST; these
 * pin down that it sends what the graphql-request-based transport sent, header for header.
 */
describe('one attempt is one GraphQL POST: method, path, headers and JSON body', () => {
  it.each(OPERATION_CASES.map((item) => [item.field, item] as const))('%s: POST /admin/graphql, the table\'s document and its variables as the JSON body', async (_field, item) => {
    await item.call(faultClient(server, { headers: { 'x-app': 'billing' } }));
    const request = onlyRequest();
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/admin/graphql');
    expect(request.headers).toMatchObject({
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      'x-service-api-key': API_KEY,
      'x-app': 'billing',
    });
    expect(request.headers['user-agent']).toContain(`school-admin-sdk/${SDK_VERSION}`);
    const body = JSON.parse(request.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['query', 'variables']);
    expect(body['query']).toBe(OPERATIONS[item.field].document);
  });

  it('request() without variables sends `{"query": ...}` alone (no variables key, no operationName)', async () => {
    await faultClient(server).request('query { __typename }');
    expect(onlyRequest().body).toBe('{"query":"query { __typename }"}');
  });

  it('a custom fetch is called unbound with the endpoint URL and an init whose redirect is "manual", headers a Headers, a signal', async () => {
    const seen: { input: unknown; init: RequestInit | undefined; self: unknown }[] = [];
    const admin = faultClient(server, {
      fetch: function (this: unknown, input, init) {
        seen.push({ input, init, self: this });
        return fetch(input, init);
      },
    });
    await admin.request('query { __typename }');
    expect(seen).toHaveLength(1);
    const [{ input, init, self }] = seen as [(typeof seen)[number]];
    expect(String(input)).toBe(`${server.url}/admin/graphql`);
    expect(input).toBeInstanceOf(URL);
    expect(self).toBeUndefined();
    expect(init).toMatchObject({ method: 'POST', redirect: 'manual' });
    expect(init?.headers).toBeInstanceOf(Headers);
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });
});
