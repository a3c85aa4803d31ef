import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { GraphQLResponseError, NetworkError } from '../../src/index.js';
import { API_KEY, useScriptedAdminApi, testClient } from '../support/scripted-admin-api.js';
import { http, HttpResponse } from 'msw';
import { BASE_URL } from '../support/scripted-admin-api.js';

const api = useScriptedAdminApi();

describe('request(document, variables) — the escape hatch for documents the typed methods do not cover', () => {
  it('sends a string document with variables and the key, resolving to data as sent', async () => {
    api.data({ couponGrants: { nodes: [{ id: 'g-1' }] } });
    const data = await testClient().request<{ couponGrants: { nodes: { id: string }[] } }>(
      'query Grants($email: String) { couponGrants(userEmail: $email) { nodes { id } } }',
      { email: 'ada@example.com' },
    );
    expect(data.couponGrants.nodes[0]?.id).toBe('g-1');
    expect(api.last.variables).toEqual({ email: 'ada@example.com' });
    expect(api.last.headers.get('x-service-api-key')).toBe(API_KEY);
  });

  it('accepts a parsed DocumentNode', async () => {
    api.data({ __typename: 'Query' });
    await testClient().request(parse('query { __typename }'));
    expect(api.last.query).toContain('__typename');
  });

  it('sends the document text unchanged (the server classifies by its first characters)', async () => {
    api.data({ __typename: 'Query' });
    const document = '  # leading comment\nmutation X { __typename }';
    await testClient().request(document);
    expect(api.last.query).toBe(document);
  });

  it('uncoded GraphQL errors become GraphQLResponseError', async () => {
    api.answer({ body: { data: null, errors: [{ message: 'Cannot query field "nope" on type "Query".' }] } });
    const error = await testClient().request('query { nope }').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GraphQLResponseError);
    expect((error as GraphQLResponseError).messages).toEqual(['Cannot query field "nope" on type "Query".']);
  });

  it('a mutation document is not retried after a failure that may have reached the server, a query is', async () => {
    let calls = 0;
    api.server.use(
      http.post(`${BASE_URL}/admin/graphql`, () => {
        calls += 1;
        return calls === 1 ? HttpResponse.error() : HttpResponse.json({ data: { ok: true } });
      }),
    );
    const mutation = await testClient().request('mutation { ok }').catch((caught: unknown) => caught);
    expect(mutation).toBeInstanceOf(NetworkError);
    expect(calls).toBe(1);
    calls = 0;
    await expect(testClient().request('query { ok }')).resolves.toEqual({ ok: true });
    expect(calls).toBe(2);
    calls = 0;
    await expect(testClient().request('mutation { ok }', undefined, { idempotent: true })).resolves.toEqual({ ok: true });
    expect(calls).toBe(2);
  });
});
