import type { RateLimitedOperationType } from './bucket-name.js';

/**
 * Classifies a document exactly as the server does (spec, Limits rule 3): a mutation when the
 * query string starts with `mutation`; everything else, introspection and documents that start
 * with whitespace or a comment included, is a query.
 */
export function operationTypeOf(document: string): RateLimitedOperationType {
  return document.startsWith('mutation') ? 'mutations' : 'queries';
}
