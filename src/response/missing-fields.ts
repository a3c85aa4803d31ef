import type { MissingField } from '../errors/graphql-request-error.js';

/**
 * graphql-js's validation message for a field the schema lacks (rule FieldsOnCorrectTypeRule),
 * which Apollo Server, GraphQL Yoga and mercurius pass on as it is: `Cannot query field "x" on
 * type "T".`, sometimes followed by `Did you mean ...?`. Servers state this fact nowhere else
 * (Apollo's `GRAPHQL_VALIDATION_FAILED` code covers every validation error), so the message is
 * read for it; the error's class never depends on it.
 */
const CANNOT_QUERY_FIELD = /^Cannot query field "([_A-Za-z][_0-9A-Za-z]*)" on type "([_A-Za-z][_0-9A-Za-z]*)"\./;

/** The fields a request error's messages say the schema lacks, each once, in the order named. */
export function missingFieldsIn(messages: readonly string[]): MissingField[] {
  const found = new Map<string, MissingField>();
  for (const message of messages) {
    const match = CANNOT_QUERY_FIELD.exec(message);
    if (match === null) continue;
    const [, field = '', type = ''] = match;
    found.set(`${type}.${field}`, { type, field });
  }
  return [...found.values()];
}
