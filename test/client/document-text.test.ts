import { Kind, parse, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { AdminClient, InvalidInputError } from '../../src/index.js';
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

/** A document of one anonymous query holding `selections`, built by hand (no lists where graphql would leave empty ones). */
function queryOf(...selections: object[]): DocumentNode {
  return { kind: Kind.DOCUMENT, definitions: [{ kind: Kind.OPERATION_DEFINITION, operation: 'query', selectionSet: { kind: Kind.SELECTION_SET, selections } }] } as unknown as DocumentNode;
}
const nameNode = (value: string) => ({ kind: Kind.NAME, value });
const field = (name: string, more: object = {}) => ({ kind: Kind.FIELD, name: nameNode(name), ...more });
const argument = (name: string, value: object) => ({ kind: Kind.ARGUMENT, name: nameNode(name), value });
/** The text `documentText` gives for a document parsed without its location. */
/** Fragment variables: graphql 16 reads them with `allowLegacyFragmentVariables`, 17 with `experimentalFragmentArguments`. */
const PARSE_OPTIONS = { noLocation: true, allowLegacyFragmentVariables: true, experimentalFragmentArguments: true };
const printed = (text: string): string => documentText(parse(text, PARSE_OPTIONS));

describe("request(): a DocumentNode without its source text is printed as graphql-js prints it, without graphql's printer", () => {
  it('operations: a query, a mutation and a subscription, with names, variables and directives; the bare `{ }` form only for an anonymous query with nothing else', () => {
    expect(printed('query { a } mutation { b } subscription S { c }')).toBe('{\n  a\n}\n\nmutation {\n  b\n}\n\nsubscription S {\n  c\n}');
    expect(printed('query @live { a }')).toBe('query @live {\n  a\n}');
    expect(printed('query ($id: ID!) { a }')).toBe('query ($id: ID!) {\n  a\n}');
    expect(printed('query Named { a }')).toBe('query Named {\n  a\n}');
  });

  it('variable definitions: named, list and non-null types, default values, directives', () => {
    expect(printed('query Q($a: [Int!]! = [1, 2] @tag(name: "x"), $b: Filter = {state: OPEN, ids: []}, $c: [[String]]) { a }')).toBe(
      'query Q($a: [Int!]! = [1, 2] @tag(name: "x"), $b: Filter = {state: OPEN, ids: []}, $c: [[String]]) {\n  a\n}',
    );
  });

  it('descriptions (graphql 16.15 and 17) on operations, variable definitions and fragments, which put the variables one per line', () => {
    // Added to the parsed AST by hand: graphql before 16.15 cannot parse them, yet its apps may build them.
    const description = (text: string): { kind: 'StringValue'; value: string } => ({ kind: 'StringValue', value: text });
    const query = parse('query Q($email: String, $n: Int) { a }', { noLocation: true });
    const operation = query.definitions[0] as unknown as { description?: unknown; variableDefinitions: Array<{ description?: unknown }> };
    operation.description = description('Lists grants');
    if (operation.variableDefinitions[0] !== undefined) operation.variableDefinitions[0].description = description('the member');
    expect(documentText(query)).toBe('"Lists grants"\nquery Q(\n"the member"\n$email: String\n$n: Int\n) {\n  a\n}');
    const fragment = parse('fragment F on T { a }', { noLocation: true });
    (fragment.definitions[0] as unknown as { description?: unknown }).description = description('shared');
    expect(documentText(fragment)).toBe('"shared"\nfragment F on T {\n  a\n}');
  });

  it('fields: alias, arguments of every value kind (one per line past 80 columns), directives, nested selection sets', () => {
    const text =
      'query ($v: Int) { first: coupons(limit: 10, ratio: 1.5e3, code: "A\\"B", on: true, off: false, none: null, kind: PERCENTAGE, ids: [1, [2]], where: {and: {id: $v}}) @include(if: true) @cached { nodes { id } } }';
    expect(printed(text)).toBe(
      'query ($v: Int) {\n  first: coupons(\n    limit: 10\n    ratio: 1.5e3\n    code: "A\\"B"\n    on: true\n    off: false\n    none: null\n    kind: PERCENTAGE\n    ids: [1, [2]]\n    where: {and: {id: $v}}\n  ) @include(if: true) @cached {\n    nodes {\n      id\n    }\n  }\n}',
    );
    expect(printed('{ coupon(id: "c-1") { id } }')).toBe('{\n  coupon(id: "c-1") {\n    id\n  }\n}');
  });

  it('fragments: spreads with directives, inline fragments with and without a type condition, definitions with directives', () => {
    expect(printed('{ ...F @skip(if: false) ... on Coupon { id } ... @include(if: true) { a } ... { b } } fragment F on Query @dir { c }')).toBe(
      '{\n  ...F @skip(if: false)\n  ... on Coupon {\n    id\n  }\n  ... @include(if: true) {\n    a\n  }\n  ... {\n    b\n  }\n}\n\nfragment F on Query @dir {\n  c\n}',
    );
  });

  it("fragment variables: graphql 16's experimental definitions, and graphql 17's fragment arguments (as graphql 17's print gives them)", () => {
    expect(printed('fragment F($size: Int = 8) on T { a(size: $size) }')).toBe('fragment F($size: Int = 8) on T {\n  a(size: $size)\n}');
    // graphql 17 with `experimentalFragmentArguments`: the spread's arguments are `FragmentArgument` nodes.
    const spread = { kind: Kind.FRAGMENT_SPREAD, name: nameNode('F'), arguments: [{ kind: 'FragmentArgument', name: nameNode('size'), value: { kind: Kind.INT, value: '4' } }] };
    expect(documentText(queryOf(spread))).toBe('{\n  ...F(size: 4)\n}');
  });

  it("an empty selection set (graphql 17's parser keeps `{}`) is printed as `{}`, as graphql 17 prints it", () => {
    expect(documentText(queryOf(field('a', { selectionSet: { kind: Kind.SELECTION_SET, selections: [] } })))).toBe('{\n  a {}\n}');
  });

  it('a hand-built AST without the empty lists graphql would add prints the same', () => {
    const built = queryOf(
      field('coupons', { alias: nameNode('all'), arguments: [argument('kind', { kind: Kind.ENUM, value: 'FIXED' })], selectionSet: { kind: Kind.SELECTION_SET, selections: [field('id')] } }),
    );
    expect(documentText(built)).toBe(printed('{ all: coupons(kind: FIXED) { id } }'));
  });

  it('strings parse back to exactly their value: quotes, backslashes, control characters, C1 controls, U+2028/2029, astral characters', () => {
    const value = 'quote " backslash \\ nul \u0000 tab \t newline \n cr \r bell \u0007 del \u007F c1 \u0085 ls \u2028 ps \u2029 bom \uFEFF emoji 😀 max \u{10FFFF}';
    const text = documentText(queryOf(field('a', { arguments: [argument('s', { kind: Kind.STRING, value })] })));
    expect(text).toContain('"quote \\" backslash \\\\ nul \\u0000 tab \\t newline \\n cr \\r bell \\u0007 del \\u007F c1 \\u0085');
    const [operation] = parse(text, { noLocation: true }).definitions as unknown as [{ selectionSet: { selections: [{ arguments: [{ value: { value: string } }] }] } }];
    expect(operation.selectionSet.selections[0].arguments[0].value.value).toBe(value);
  });

  it('a block string is sent as an ordinary string of the same value', () => {
    expect(printed('{ a(text: """\n  two\n  lines "quoted"\n""") }')).toBe('{\n  a(text: "two\\nlines \\"quoted\\"")\n}');
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

  it('a node out of place, or missing a part it needs, is refused naming the node and the part', () => {
    const typeAsValue = queryOf(field('a', { arguments: [argument('x', { kind: Kind.NAMED_TYPE, name: nameNode('T') })] }));
    expect((refusalOf(typeAsValue) as Error).message).toContain('holds an Argument node whose value is missing or not valid GraphQL');
    expect((refusalOf(queryOf({ kind: Kind.SCALAR_TYPE_DEFINITION, name: nameNode('S') })) as Error).message).toContain('a SelectionSet node whose selections is missing');
    const noSelectionSet = { kind: Kind.DOCUMENT, definitions: [{ kind: Kind.OPERATION_DEFINITION, operation: 'query' }] } as unknown as DocumentNode;
    expect((refusalOf(noSelectionSet) as Error).message).toContain('an OperationDefinition node whose selectionSet is missing');
  });

  it('names, numbers and enum values must be GraphQL tokens, so a hand-built AST cannot inject text', () => {
    expect((refusalOf(queryOf(field('a(x: 1) { secret } b'))) as Error).message).toContain('a Field node whose name is missing or not valid GraphQL');
    expect(refusalOf(queryOf(field('a', { arguments: [argument('n', { kind: Kind.INT, value: '1) { secret' })] })))).toBeInstanceOf(InvalidInputError);
    expect(refusalOf(queryOf(field('a', { arguments: [argument('n', { kind: Kind.FLOAT, value: 'NaN' })] })))).toBeInstanceOf(InvalidInputError);
    expect((refusalOf(queryOf(field('a', { arguments: [argument('e', { kind: Kind.ENUM, value: 'true' })] }))) as Error).message).toContain('an EnumValue node whose value');
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
