import { Kind, parse, print, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { AdminClient, InvalidInputError } from '../../src/index.js';
import { documentText } from '../../src/client/pipeline/document-text.js';

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

/** A document of one anonymous query holding `selections`, built by hand. */
function queryOf(...selections: unknown[]): DocumentNode {
  return { kind: Kind.DOCUMENT, definitions: [{ kind: Kind.OPERATION_DEFINITION, operation: 'query', selectionSet: { kind: Kind.SELECTION_SET, selections } }] } as unknown as DocumentNode;
}

describe("request(): a DocumentNode without its source text is printed by graphql's own print", () => {
  it('gives exactly what graphql-js prints, for operations, variables, directives, fragments and block strings', () => {
    const text =
      'query Q($a: [Int!]! = [1, 2] @tag(name: "x")) @live { first: coupons(limit: 10, code: "A\\"B", kind: PERCENTAGE, text: """\n  two\n""") @include(if: true) { ...F ... on Coupon { id } } } mutation { b } fragment F on Coupon @dir { c }';
    const document = parse(text, { noLocation: true });
    expect(documentText(document)).toBe(print(document));
    expect(documentText(parse('query   {   __typename }', { noLocation: true }))).toBe('{\n  __typename\n}');
  });
});

describe('request(): a document that is not executable is refused before anything is sent', () => {
  /** The error `documentText` throws, or the text it returned. */
  function refusalOf(document: DocumentNode): unknown {
    try {
      return documentText(document);
    } catch (error) {
      return error;
    }
  }

  it('a type-system definition: InvalidInputError (operation request, field document) naming the kind and the remedy', () => {
    const error = refusalOf(parse('type Coupon { id: ID }', { noLocation: true }));
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ operation: 'request', field: 'document', local: true });
    expect((error as Error).message).toBe(
      "Failed to run the request: the document holds an ObjectTypeDefinition node, which is not part of an executable document; pass the document's text, or a DocumentNode parsed with its location. Nothing was sent.",
    );
    expect((refusalOf(parse('{ a } schema { query: Q }', { noLocation: true })) as Error).message).toContain('holds a SchemaDefinition node, which is not part of an executable document');
    expect((refusalOf(parse('extend type T { b: Int }', { noLocation: true })) as Error).message).toContain('holds an ObjectTypeExtension node');
  });

  it('an unknown kind is named; one that is not a plain name is not echoed', () => {
    expect((refusalOf({ kind: Kind.DOCUMENT, definitions: [{ kind: 'FutureDefinition' }] } as unknown as DocumentNode) as Error).message).toContain('holds a FutureDefinition node');
    const hostile = refusalOf({ kind: Kind.DOCUMENT, definitions: [{ kind: 'x { evil }' }] } as unknown as DocumentNode) as Error;
    expect(hostile.message).toContain('holds an unrecognised node');
    expect(hostile.message).not.toContain('evil');
    expect((refusalOf({ kind: Kind.DOCUMENT, definitions: [null] } as unknown as DocumentNode) as Error).message).toContain('holds an unrecognised node');
  });
});

describe('request(): what is POSTed for a document parsed with noLocation', () => {
  it('POSTs the printed text, which parses back to the same document', async () => {
    const bodies: string[] = [];
    const source = 'query Grants($email: String = "a\\u0000b") { couponGrants(userEmail: $email) { nodes { id } } }';
    const document = parse(source, { noLocation: true });
    await new AdminClient({ apiKey: 'sk_live_documents', baseUrl: 'https://school.example', limits: false, fetch: recordingFetch(bodies) }).request(document, { email: 'ada@example.com' });
    const sent = JSON.parse(bodies[0] ?? '{}') as { query: string; variables: unknown };
    expect(sent.query).toBe('query Grants($email: String = "a\\u0000b") {\n  couponGrants(userEmail: $email) {\n    nodes {\n      id\n    }\n  }\n}');
    expect(parse(sent.query, { noLocation: true })).toEqual(document);
    expect(sent.variables).toEqual({ email: 'ada@example.com' });
  });

  it('a type-system document is refused with InvalidInputError and nothing reaches fetch', async () => {
    const bodies: string[] = [];
    const client = new AdminClient({ apiKey: 'sk_live_documents', baseUrl: 'https://school.example', limits: false, fetch: recordingFetch(bodies) });
    const error = await client.request(parse('{ a } type T { a: Int }', { noLocation: true })).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ operation: 'request', field: 'document' });
    expect(bodies).toEqual([]);
  });
});
