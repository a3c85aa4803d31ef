import { print, type DocumentNode } from 'graphql';
import type { InvalidInputError } from '../../errors/invalid-input-error.js';
import { invalidInput, type LocalContext } from '../../validation/local-errors.js';
import type { AnyDocument, DocumentNodeLike } from '../types/types.js';

/** Errors name the call as `request()`'s other local errors do. */
export const REQUEST_CONTEXT: LocalContext = { operation: 'request', label: 'run the request' };

/** The definitions a request may hold; anything else (a type-system definition, an unknown kind) is refused. */
const EXECUTABLE_DEFINITIONS: ReadonlySet<unknown> = new Set(['OperationDefinition', 'FragmentDefinition']);

/**
 * The GraphQL text `AdminClient.request()` sends for a document: a string as is, a typed string
 * document (codegen's `TypedDocumentString`) by its `toString()`, a parsed `DocumentNode` by the
 * text it was parsed from (`loc.source.body`), which holds for a document of any graphql major (an
 * app on graphql 17 while the SDK's own copy is 16). Only a document without that text (parsed
 * with `noLocation`, built by hand, serialised, or codegen's `TypedDocumentNode` objects, which
 * carry no `loc`) is printed, by graphql's own `print`.
 *
 * @throws {InvalidInputError} for a printed document holding a definition that is not part of an
 * executable document (a type-system definition, an unknown kind): nothing is sent. What lies
 * inside an operation is printed as graphql prints it (a hand-built node it cannot read throws
 * graphql's own error).
 *
 * @example
 * ```ts
 * documentText(parse('query { __typename }')); // 'query { __typename }'
 * ```
 */
export function documentText(document: AnyDocument<unknown, never>): string {
  if (typeof document === 'string') return document;
  if (isDocumentNode(document)) {
    // Serialised ASTs (e.g. codegen's TypedDocumentNode objects) may carry a `loc` without its source.
    const body: unknown = document.loc?.source?.body;
    return typeof body === 'string' ? body : printExecutable(document);
  }
  return String(document);
}

function printExecutable(document: DocumentNodeLike): string {
  // graphql's print would print a type-system definition as readily: the server would then refuse
  // the whole request, after it counted against the budget.
  const foreign = document.definitions.find((definition) => !EXECUTABLE_DEFINITIONS.has(kindOf(definition)));
  if (foreign !== undefined) throw refusal(`the document holds ${describe(foreign)}, which is not part of an executable document`);
  return print(document as unknown as DocumentNode);
}

function isDocumentNode(document: object): document is DocumentNodeLike {
  return (document as { kind?: unknown }).kind === 'Document' && Array.isArray((document as { definitions?: unknown }).definitions);
}

function kindOf(node: unknown): unknown {
  return typeof node === 'object' && node !== null ? (node as { kind?: unknown }).kind : undefined;
}

/** "an ObjectTypeDefinition node"; a kind that is not a plain name is not echoed. */
function describe(node: unknown): string {
  const kind = kindOf(node);
  const shown = typeof kind === 'string' && /^[A-Za-z]\w{0,63}$/.test(kind) ? kind : 'unrecognised';
  return `${/^[AEIOU]/i.test(shown) ? 'an' : 'a'} ${shown} node`;
}

function refusal(problem: string): InvalidInputError {
  return invalidInput(REQUEST_CONTEXT, 'document', `${problem}; pass the document's text, or a DocumentNode parsed with its location`);
}
