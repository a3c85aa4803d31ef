import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { describe, expectTypeOf, it } from 'vitest';
import type { AdminClient, AnyDocument, DocumentNodeLike, RequestOptions } from '../../src/index.js';

declare const admin: AdminClient;

/** graphql 17's AST as its declarations shape it: `Kind` a const union (no enum), `Location` a class. */
declare namespace Graphql17 {
  const Kind: { readonly DOCUMENT: 'Document'; readonly OPERATION_DEFINITION: 'OperationDefinition' };
  class Source {
    readonly body: string;
    readonly name: string;
  }
  class Location {
    readonly start: number;
    readonly end: number;
    readonly source: Source;
  }
  interface OperationDefinitionNode {
    readonly kind: (typeof Kind)['OPERATION_DEFINITION'];
    readonly loc?: Location | undefined;
  }
  interface DocumentNode {
    readonly kind: (typeof Kind)['DOCUMENT'];
    readonly loc?: Location | undefined;
    readonly definitions: ReadonlyArray<OperationDefinitionNode>;
  }
  function parse(source: string): DocumentNode;
}

describe('request() takes a DocumentNode of any graphql major, structurally', () => {
  it("accepts graphql 16's parse() (this project's copy, Kind an enum)", () => {
    expectTypeOf(admin.request(parse('query { __typename }'))).resolves.toEqualTypeOf<Record<string, unknown>>();
  });

  it("accepts graphql 17's parse() (another copy: no nominal Kind enum to match)", () => {
    expectTypeOf(Graphql17.parse('query { __typename }')).toExtend<DocumentNodeLike>();
    expectTypeOf(admin.request(Graphql17.parse('query { __typename }'))).resolves.toEqualTypeOf<Record<string, unknown>>();
  });

  it('infers the result of a TypedDocumentNode', () => {
    const typed = parse('query { __typename }') as TypedDocumentNode<{ __typename: 'Query' }, Record<string, never>>;
    expectTypeOf(admin.request(typed)).resolves.toEqualTypeOf<{ __typename: 'Query' }>();
  });

  it('refuses what is no document', () => {
    // @ts-expect-error a number is no document
    void admin.request(42);
    // @ts-expect-error another AST node is no document
    void admin.request({ kind: 'Field', definitions: [] });
    expectTypeOf<{ kind: 'Document'; definitions: [] }>().toExtend<AnyDocument<unknown, never>>();
  });
});

describe('request(document, variables, { operationName })', () => {
  it('keeps the typed document\'s result and variables types when operationName is given', () => {
    const typed = parse('query Probe { __typename } mutation Other { __typename }') as TypedDocumentNode<{ __typename: 'Query' }, { id: string }>;
    expectTypeOf(admin.request(typed, { id: 'x' }, { operationName: 'Probe' })).resolves.toEqualTypeOf<{ __typename: 'Query' }>();
    // @ts-expect-error the variables are still the document's
    void admin.request(typed, { id: 1 }, { operationName: 'Probe' });
  });

  it('operationName is a string', () => {
    expectTypeOf<RequestOptions['operationName']>().toEqualTypeOf<string | undefined>();
    // @ts-expect-error not a number
    void admin.request('query Probe { __typename }', {}, { operationName: 1 });
  });
});
