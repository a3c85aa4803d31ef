import { GraphQLRequestError, type MissingField } from '../errors/graphql-request-error.js';
import type { GraphQLErrorDetail } from '../errors/graphql-response-error.js';
import type { Redactor } from '../errors/redactor.js';
import type { HttpOutcome } from '../transport/graphql-transport.js';
import { errorBase, type ErrorContext } from './error-context.js';
import { extensionCodeOf, type GraphQLErrorEntry } from './graphql-errors.js';
import { missingFieldsIn } from './missing-fields.js';
import { withoutFinalStop } from './sentence.js';

/**
 * True when the answer refuses the request before anything ran and says why in GraphQL errors:
 * HTTP 400 (GraphQL over HTTP: a request error under `application/graphql-response+json`, and what
 * legacy `application/json` servers send too) or 422, or a 2xx with errors and no `data` entry (a
 * request error under `application/json`; GraphQL leaves `data` out only then). Other 4xx
 * (404, 405, 413, 415, ...) refuse the HTTP request, not the GraphQL one: they stay `HttpError`.
 * A 401, 403 or 429 never gets here (authentication and rate limits come first).
 */
export function refusedBeforeRunning(outcome: HttpOutcome, entries: readonly GraphQLErrorEntry[]): boolean {
  if (entries.length === 0) return false;
  const { status } = outcome;
  if (status === 400 || status === 422) return true;
  return status >= 200 && status < 300 && outcome.body?.data === undefined;
}

/** How a request error's message names who wrote the document. */
export interface RequestErrorOptions extends ErrorContext {
  /** True for `request()`: the caller wrote the document, not the SDK. */
  callerDocument: boolean;
}

/**
 * The {@link GraphQLRequestError} of a refused request: the server's first message (redacted) in
 * the error's own, and a field the server's schema lacks named as such.
 */
export function requestError(entries: readonly GraphQLErrorEntry[], status: number, options: RequestErrorOptions): GraphQLRequestError {
  const { redactor } = options;
  const messages = entries.map((entry) => redactor.secret(entry.message));
  // Read from the messages already stripped of keys: a redacted name no longer matches.
  const missingFields = missingFieldsIn(messages);
  const first = withoutFinalStop(redactor.text((entries[0] as GraphQLErrorEntry).message));
  const more = entries.length > 1 ? ` (and ${entries.length - 1} more in error.graphQLErrors)` : '';
  const http = status >= 200 && status < 300 ? '' : ` (HTTP ${status})`;
  const reason =
    missingFields.length > 0
      ? `the deployed server's schema lacks ${fieldList(missingFields, redactor)}, which ${options.callerDocument ? 'the document' : 'this SDK version'} selects; it refused the request${http}: ${first}${more}`
      : `the server refused the request${http}: ${first}${more}`;
  const rawCode = extensionCodeOf(entries[0] as GraphQLErrorEntry);
  return new GraphQLRequestError(`Failed to ${options.label}: ${reason}. Nothing ran. ${remedy(options.callerDocument, missingFields.length > 0)}`, {
    ...errorBase(options),
    messages,
    graphQLErrors: graphQLErrorDetails(entries, redactor),
    ...(rawCode === undefined ? {} : { serverCode: redactor.secret(rawCode) }),
    missingFields,
  });
}

/** The entries as a {@link GraphQLErrorDetail} list, every string stripped of API keys. */
export function graphQLErrorDetails(entries: readonly GraphQLErrorEntry[], redactor: Redactor): GraphQLErrorDetail[] {
  return entries.map((entry) => ({
    message: redactor.secret(entry.message),
    locations: entry.locations,
    path: entry.path.map((segment) => redactor.secret(segment)),
    extensions: redactor.secretDeep(entry.extensions),
  }));
}

function fieldList(fields: readonly MissingField[], redactor: Redactor): string {
  const names = fields.map(({ type, field }) => redactor.text(`${type}.${field}`));
  const last = names.pop() as string;
  return names.length === 0 ? `the field ${last}` : `the fields ${names.join(', ')} and ${last}`;
}

function remedy(callerDocument: boolean, missingField: boolean): string {
  if (!callerDocument) return 'Use the SDK version made for the deployed API, or update the server.';
  return missingField ? 'Select only fields the deployed schema has.' : 'Fix the document or its variables before sending it again.';
}
