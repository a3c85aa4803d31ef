import { parse, type OperationDefinitionNode } from 'graphql';

/** What the GraphQL conventions record of an operation. */
export interface OperationNames {
  /** `'query'`, `'mutation'` or `'subscription'`; undefined when the document does not parse. */
  type: string | undefined;
  /** The operation's name; undefined for an anonymous one, or when it cannot be told. */
  name: string | undefined;
  /** The span name the GraphQL conventions give it: `{type} {name}`, `{type}`, or `GraphQL Operation`. */
  spanName: string;
}

/**
 * Reads the type and name of the operation a document runs: the one `operationName` selects, or
 * its only one. A document that does not parse, or whose operation cannot be told, gets the
 * conventions' fallback name.
 */
export function readOperation(document: string, operationName: string | undefined): OperationNames {
  let operations: OperationDefinitionNode[];
  try {
    operations = parse(document, { noLocation: true }).definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === 'OperationDefinition');
  } catch {
    return { type: undefined, name: undefined, spanName: 'GraphQL Operation' };
  }
  const operation = operationName === undefined ? (operations.length === 1 ? operations[0] : undefined) : operations.find((candidate) => candidate.name?.value === operationName);
  if (operation === undefined) return { type: undefined, name: operationName, spanName: 'GraphQL Operation' };
  const type = operation.operation;
  const name = operation.name?.value;
  return { type, name, spanName: name === undefined ? type : `${type} ${name}` };
}
