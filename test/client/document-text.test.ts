import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { AdminClient } from '../../src/index.js';
import { documentText } from '../../src/client/document-text.js';

/** A fetch that records what was sent and answers `{ data: { __typename: 'Query' } }`. */
function recordingFetch(bodies: string[]): typeof globalThis.fetch {
  return (_input, init) => {
    bodies.push(String(init?.body));
    return Promise.resolve(new Response(JSON.stringify({ data: { __typename: 'Query' } }), { status: 200, headers: { 'content-type': 'application/json' } }));
  };
}

describe('request(): a parsed DocumentNode is sent as the text it was parsed from', () => {
  it('sends parse(text) as exactly that text, comments and layout included', async () => {
    const bodies: string[] = [];
    const text = '# the layout stays\nquery Typename {\n  __typename\n}\n';
    await new AdminClient({ apiKey: 'sk_live_documents', baseUrl: 'https://school.example', limits: false, fetch: recordingFetch(bodies) }).request(parse(text));
    expect(JSON.parse(bodies[0] ?? '{}')).toMatchObject({ query: text });
  });

  it("reads another graphql copy's document structurally (graphql 17's AST is a plain object to this copy)", () => {
    const foreign = { kind: 'Document', definitions: [{ kind: 'OperationDefinition' }], loc: { start: 0, end: 22, source: { body: 'query { __typename }  ' } } } as const;
    expect(documentText(foreign)).toBe('query { __typename }  ');
  });

  it('prints a document without its source text (parsed with noLocation, or serialised without source)', () => {
    expect(documentText(parse('query   {   __typename }', { noLocation: true }))).toBe('{\n  __typename\n}');
    const serialised = JSON.parse(JSON.stringify({ ...parse('mutation M { ok }'), loc: { start: 0, end: 17 } })) as ReturnType<typeof parse>;
    expect(documentText(serialised)).toBe('mutation M {\n  ok\n}');
  });

  it('sends a string and a typed string document by their text', () => {
    class TypedDocumentString extends String {
      declare __apiType?: (variables: Record<string, never>) => { ok: boolean };
      override toString(): string {
        return 'mutation Typed { ok }';
      }
    }
    expect(documentText('query { a }')).toBe('query { a }');
    expect(documentText(new TypedDocumentString('ignored'))).toBe('mutation Typed { ok }');
  });
});
