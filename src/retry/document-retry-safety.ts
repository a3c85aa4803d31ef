import { Kind, parse } from 'graphql';
import type { RetrySafety } from '../client/operations.js';

/**
 * Whether a document given to `request()` may be sent again after a failure that may have reached
 * the server, judged by what it is, not by its first characters: a mutation written as a template
 * literal (a leading newline, indentation), after a `# comment` or a fragment is still a mutation.
 * Only a document whose single operation is a query is safe; several operations (which one would
 * run is unknown), a mutation, a subscription or a document that does not parse are not.
 *
 * The rate-limit bucket is another question, answered as the server does (`operationTypeOf`:
 * a mutation only when the text starts with `mutation`).
 */
export function retrySafetyOfDocument(text: string): RetrySafety {
  let operations: string[];
  try {
    operations = parse(text, { noLocation: true }).definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION ? [definition.operation] : []));
  } catch {
    return 'unsafe';
  }
  return operations.length === 1 && operations[0] === 'query' ? 'idempotent' : 'unsafe';
}
