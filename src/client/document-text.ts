import { printExecutableDocument } from './print-document.js';
import type { AnyDocument, DocumentNodeLike } from './types.js';

/**
 * The GraphQL text `AdminClient.request()` sends for a document: a string as is, a typed string
 * document (codegen's `TypedDocumentString`) by its `toString()`, a parsed `DocumentNode` by the
 * text it was parsed from (`loc.source.body`), which holds for a document of any graphql major (an
 * app on graphql 17 while the SDK's own copy is 16). Only a document without that text (parsed
 * with `noLocation`, built by hand, or serialised) is printed, by the SDK's own printer of
 * executable documents (`print-document.ts`: graphql's printer would be 8 kB of every bundle for
 * this fallback), which gives graphql's `print` layout.
 *
 * @throws {InvalidInputError} for a printed document holding a node that is not part of an
 * executable document (a type-system definition, an unknown kind): nothing is sent.
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
    return typeof body === 'string' ? body : printExecutableDocument(document);
  }
  return String(document);
}

function isDocumentNode(document: object): document is DocumentNodeLike {
  return (document as { kind?: unknown }).kind === 'Document' && Array.isArray((document as { definitions?: unknown }).definitions);
}
