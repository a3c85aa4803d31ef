import {
  Kind,
  parse,
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** What the pipeline needs to know about a request's document before executing it. */
export interface DocumentInfo {
  /** The parsed document, or null with `syntaxError` set. */
  document: DocumentNode | null;
  syntaxError: GraphQLError | null;
  /** The operation that would run (by `operationName`, else the only one), if determinable. */
  operation: OperationDefinitionNode['operation'] | null;
  /** Its root field names, through fragments, in document order. */
  fields: string[];
}

function rootFields(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>, seen: Set<string>): string[] {
  return selectionSet.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection.name.value];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFields(selection.selectionSet, fragments, seen);
    const name = selection.name.value;
    const fragment = fragments.get(name);
    if (!fragment || seen.has(name)) return [];
    seen.add(name);
    return rootFields(fragment.selectionSet, fragments, seen);
  });
}

/** Parses a request's query and finds the operation and root fields it would run. */
export function analyseDocument(query: string, operationName: string | undefined): DocumentInfo {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    const syntaxError = error instanceof GraphQLError ? error : new GraphQLError(String(error));
    return { document: null, syntaxError, operation: null, fields: [] };
  }
  const operations = document.definitions.filter((node): node is OperationDefinitionNode => node.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName === undefined ? (operations.length === 1 ? operations[0] : undefined) : operations.find((node) => node.name?.value === operationName);
  if (!operation) return { document, syntaxError: null, operation: null, fields: [] };
  const fragments = new Map(
    document.definitions
      .filter((node): node is FragmentDefinitionNode => node.kind === Kind.FRAGMENT_DEFINITION)
      .map((node) => [node.name.value, node]),
  );
  return { document, syntaxError: null, operation: operation.operation, fields: rootFields(operation.selectionSet, fragments, new Set()) };
}
