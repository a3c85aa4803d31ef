/** The spec's two rate-limit budgets. */
export type OperationType = 'mutations' | 'queries';

/**
 * Classifies a request exactly as the spec's rule 3: a mutation when the query string starts with
 * `mutation`; everything else, including introspection and documents that open with whitespace or
 * a `#` comment, is a query.
 *
 * @example
 * ```ts
 * classifyOperation('mutation { a }');   //=> 'mutations'
 * classifyOperation(' mutation { a }');  //=> 'queries'
 * ```
 */
export function classifyOperation(query: string): OperationType {
  return query.startsWith('mutation') ? 'mutations' : 'queries';
}
