import type { RetrySafety } from '../client/facade/operations.js';

/**
 * `mutation` or `subscription` as a GraphQL name anywhere in a text. `\b` is a boundary of
 * GraphQL's name characters (`[_0-9A-Za-z]`, exactly JavaScript's `\w`), and an operation that can
 * change anything starts with one of these two names, so a text without either holds queries only.
 */
const CHANGING_OPERATION_KEYWORD = /\b(?:mutation|subscription)\b/;

/**
 * Whether a document given to `request()` may be sent again after a failure that may have reached
 * the server, judged by the text that is sent: safe only when nothing in it can be an operation
 * that changes data, that is, when the name `mutation` or `subscription` appears nowhere in it
 * (a comment, a string, a field or an alias of that name included). This never takes a mutation
 * for a query, however it is written (after whitespace, a comment, a fragment, or as the operation
 * `operationName` does not select); a query whose text holds either name is treated as unsafe too,
 * and `{ idempotent: true }` says otherwise. A text without either name that the server refuses
 * (it does not parse, or holds several operations and no `operationName`) is refused again on a
 * retry and changes nothing.
 *
 * Not a parse: graphql's lexer and its errors cost an app's bundle 3.9 kB gzipped (issue 19's
 * goal), and the name test gives the one answer retry safety needs without them.
 *
 * The rate-limit bucket is another question, answered as the server does (`operationTypeOf`: a
 * mutation only when the text starts with `mutation`).
 *
 * @example
 * ```ts
 * retrySafetyOfDocument('# who am I\n{ __typename }'); // 'idempotent'
 * retrySafetyOfDocument('\n  mutation Create { createCoupon(input: $input) { errors } }'); // 'unsafe'
 * ```
 */
export function retrySafetyOfDocument(text: string): RetrySafety {
  return CHANGING_OPERATION_KEYWORD.test(text) ? 'unsafe' : 'idempotent';
}
