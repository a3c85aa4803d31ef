import { AuthenticationError } from '../errors/authentication-error.js';
import { CodedError } from '../errors/coded-error.js';
import { describeErrorCode } from '../errors/error-codes.js';
import { GraphQLResponseError } from '../errors/graphql-response-error.js';
import { HttpError } from '../errors/http-error.js';
import { InvalidResponseError } from '../errors/invalid-response-error.js';
import { PayloadError } from '../errors/payload-error.js';
import { subscriptionUpdateReason } from '../errors/subscription-update-reason.js';
import { parseValidOptions } from '../errors/valid-options.js';
import type { HttpOutcome } from '../transport/graphql-transport.js';
import { errorBase, type ErrorContext } from './error-context.js';
import { codedErrorOf, extensionCodeOf, isObject, readGraphQLErrors, type GraphQLErrorEntry } from './graphql-errors.js';
import { graphQLErrorDetails, refusedBeforeRunning, requestError } from './request-error.js';
import { withoutFinalStop } from './sentence.js';

/** How to read the answer of one call. */
export interface InterpretOptions extends ErrorContext {
  /** GraphQL error codes (`extensions.code`) that mean the key was refused. */
  authErrorCodes: readonly string[];
  /** Map documented updateSubscription messages to `PayloadError.reason` (they may come as top-level errors). */
  subscriptionReasons?: boolean;
  /** The answer's `data` holds the operation's result (see `showsOperationRan`). */
  ran?: boolean;
  /** True for `request()`: the caller wrote the document (messages about it say so). */
  callerDocument?: boolean;
  /** The operation may change data (a mutation, or a document not known to be a query alone). */
  mayChangeData?: boolean;
}

/**
 * Turns a (non-429) HTTP outcome into the response's `data`, or throws the error class the
 * contract names for it: an answer that shows the operation ran but carries errors or a non-2xx
 * status first (`GraphQLResponseError` with `ran: 'yes'`), then coded errors (whatever the
 * status), authentication, request errors (`GraphQLRequestError`: refused before running, whatever
 * the status and media type), HTTP and other GraphQL errors, then unusable bodies.
 */
export function interpretResponse(outcome: HttpOutcome, options: InterpretOptions): Record<string, unknown> {
  const { status, body } = outcome;
  const entries = readGraphQLErrors(body?.errors);
  const ok = status >= 200 && status < 300;
  // It ran: whatever rides along, the caller learns that first (and the call is not sent again).
  if (options.ran === true && isObject(body?.data) && (entries.length > 0 || !ok)) throw executedWithErrors(entries, status, body.data, options);
  const coded = firstCoded(entries);
  if (coded !== undefined) throw codedError(coded.entry, coded.error, options);

  // Only configured codes are kept (a server could echo anything into extensions.code).
  const authCode = entries.map(extensionCodeOf).find((code) => code !== undefined && options.authErrorCodes.includes(code));
  if (status === 401 || status === 403 || authCode !== undefined) {
    throw new AuthenticationError(
      `Failed to ${options.label}: the API key was refused (${authCode ?? `HTTP ${status}`}). Check the key and that it has the scope this operation needs.`,
      { ...errorBase(options), status, ...(authCode === undefined ? {} : { serverCode: authCode }) },
    );
  }

  if (entries.length > 0 && options.subscriptionReasons === true) {
    const reason = subscriptionUpdateReason(entries[0]?.message ?? '');
    if (reason !== undefined) throw payloadError(entries.map((entry) => entry.message), options, reason);
  }

  if (refusedBeforeRunning(outcome, entries)) throw requestError(entries, status, { ...options, callerDocument: options.callerDocument === true });

  if (!ok) {
    // A non-2xx that still says why in GraphQL errors (a 404 of a wrong path, an unexpected error before execution).
    const said = entries.length > 0 ? `: ${withoutFinalStop(options.redactor.text(entries[0]?.message ?? ''))}` : '';
    const remedy = status >= 500 ? ' The server or a proxy failed; try again later.' : '';
    throw new HttpError(`Failed to ${options.label}: the server answered HTTP ${status}${said}.${remedy}`, {
      ...errorBase(options),
      status,
    });
  }

  if (entries.length > 0) throw failedWhileRunning(entries, options);

  if (!isObject(body?.data)) {
    throw new InvalidResponseError(`Failed to ${options.label}: the response carried neither data nor errors.`, {
      ...errorBase(options),
      status,
      problem: 'missing_data',
    });
  }
  return body.data;
}

/**
 * Errors raised while the operation ran, its result not shown (`data` null, or its root field
 * null). An error whose path names a field of an operation that may change data means that field
 * was started and failed: GraphQL nulls its result whatever the resolver had already done, so it
 * may have run (it is never sent again).
 */
function failedWhileRunning(entries: GraphQLErrorEntry[], options: InterpretOptions): GraphQLResponseError {
  const rawCode = extensionCodeOf(entries[0] as GraphQLErrorEntry);
  const serverCode = rawCode === undefined ? undefined : options.redactor.secret(rawCode);
  const shown = entries.map((entry) => options.redactor.text(entry.message));
  const at = entries.find((entry) => entry.path.length > 0)?.path;
  const reported = `the server reported ${plural(entries.length, 'GraphQL error')}: ${shown.join('; ')}`;
  const message =
    options.mayChangeData === true && at !== undefined
      ? `${withoutFinalStop(reported)}. It may have run (the error stands at ${options.redactor.text(at.join('.'))}): it was not sent again; check its effects before repeating it.`
      : reported;
  return new GraphQLResponseError(`Failed to ${options.label}: ${message}`, {
    ...errorBase(options),
    messages: entries.map((entry) => options.redactor.secret(entry.message)),
    graphQLErrors: graphQLErrorDetails(entries, options.redactor),
    ...(serverCode === undefined ? {} : { serverCode }),
  });
}

function executedWithErrors(entries: GraphQLErrorEntry[], status: number, data: Record<string, unknown>, options: InterpretOptions): GraphQLResponseError {
  const problems = [
    ...(status >= 200 && status < 300 ? [] : [`HTTP ${status}`]),
    ...entries.map((entry) => options.redactor.text(entry.message)),
  ];
  const first = entries[0];
  const rawCode = first === undefined ? undefined : (extensionCodeOf(first) ?? codedErrorOf(first)?.code);
  return new GraphQLResponseError(
    `Failed to ${options.label}: the operation ran, but its result came with ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}: ${problems.join('; ')}. It was not sent again; do not repeat it blindly (error.data holds the result).`,
    {
      ...errorBase(options),
      messages: entries.map((entry) => options.redactor.secret(entry.message)),
      graphQLErrors: graphQLErrorDetails(entries, options.redactor),
      ...(rawCode === undefined ? {} : { serverCode: options.redactor.secret(rawCode) }),
      ran: 'yes',
      // As sent but for any API key a hostile server echoed into it (util.inspect shows it).
      data: options.redactor.secretDeep(data),
    },
  );
}

/** Builds the {@link PayloadError} of a payload's `errors` list. */
export function payloadError(messages: string[], context: ErrorContext, reason = subscriptionUpdateReasonOf(messages)): PayloadError {
  const safe = messages.map((message) => context.redactor.secret(message));
  const shown = messages.map((message) => context.redactor.text(message));
  return new PayloadError(`Failed to ${context.label}: ${shown.join('; ')}`, {
    ...errorBase(context),
    messages: safe,
    ...(reason === undefined ? {} : { reason }),
  });
}

function subscriptionUpdateReasonOf(messages: string[]): ReturnType<typeof subscriptionUpdateReason> {
  return messages.length > 0 ? subscriptionUpdateReason(messages[0] as string) : undefined;
}

function firstCoded(entries: GraphQLErrorEntry[]) {
  for (const entry of entries) {
    const error = codedErrorOf(entry);
    if (error !== undefined) return { entry, error };
  }
  return undefined;
}

function codedError(entry: GraphQLErrorEntry, error: NonNullable<ReturnType<typeof codedErrorOf>>, context: ErrorContext): CodedError {
  // Everything the server wrote is stripped of keys before it is kept: the message, the code, the path.
  const serverMessage = context.redactor.secret(error.message);
  const code = context.redactor.secret(error.code);
  const known = describeErrorCode(code);
  const hint = parseValidOptions(serverMessage);
  const message = known
    ? `Failed to ${context.label}: ${known.meaning} (${code}). ${known.remedy}`
    : `Failed to ${context.label}: the server answered ${context.redactor.text(code)}: ${context.redactor.text(serverMessage)}`;
  return new CodedError(message, {
    ...errorBase(context),
    code,
    details: context.redactor.secretDeep(error.details),
    path: entry.path.map((segment) => context.redactor.secret(segment)),
    serverMessage,
    ...(hint === undefined ? {} : { validOptions: hint.validOptions, validOptionsTruncated: hint.validOptionsTruncated }),
  });
}

function plural(count: number, noun: string): string {
  return count === 1 ? `a ${noun}` : `${count} ${noun}s`;
}
