import { InvalidResponseError } from '../errors/invalid-response-error.js';
import { parseRowError } from '../errors/row-error.js';
import { errorBase, type ErrorContext } from '../response/error-context.js';
import { payloadMessages } from '../response/payload-messages.js';
import type { ConsultingMeetingBulkResultFieldsFragment } from '../generated/graphql.js';
import type { Unchecked } from './guaranteed-fields.js';
import type { BulkResult } from './types.js';

/** The bulk payload as the documents select it. */
export interface BulkPayload {
  results: ConsultingMeetingBulkResultFieldsFragment[] | null;
  allSucceeded: boolean | null;
  errors: string[] | null;
}

/** The rows a bulk request sent, and how the method names them in messages (`rows`, `ids`). */
export interface SentRows {
  count: number;
  /** The method's parameter (`rows`, `ids`). */
  name: string;
  /** One of them (`row`, `id`). */
  one: string;
}

/** The rows of a bulk request's list variable, named as the method's parameter `name` (one of them: `one`). */
export function sentRows(list: unknown, name: string, one: string): SentRows {
  return { count: Array.isArray(list) ? list.length : 0, name, one };
}

/**
 * Turns a bulk payload into a {@link BulkResult}: row errors stay per row (never thrown), each
 * string parsed for its code and `valid_options=` hint. Row meetings are as sent; the operation's
 * unwrap checks their guaranteed fields.
 *
 * @throws {InvalidResponseError} (`results_mismatch`, `executed: true`) when `results` is not one
 * entry per row sent (the spec: same length and order as the input): `results[i]` would no longer
 * belong to row `i`, yet the rows were processed.
 */
export function toBulkResult(payload: BulkPayload, sent: SentRows, context: ErrorContext): Unchecked<BulkResult> {
  const received = Array.isArray(payload.results) ? payload.results.length : undefined;
  if (received !== sent.count) throw resultsMismatch(context, sent, received);
  const results = (payload.results ?? []).map((row) => ({
    meeting: row?.meeting ?? null,
    errors: row?.errors === null || row?.errors === undefined ? null : payloadMessages(row.errors).map(parseRowError),
  }));
  return {
    allSucceeded: typeof payload.allSucceeded === 'boolean' ? payload.allSucceeded : results.every((row) => row.meeting !== null),
    errors: payloadMessages(payload.errors),
    results,
  };
}

function resultsMismatch(context: ErrorContext, sent: SentRows, received: number | undefined): InvalidResponseError {
  const answered = received === undefined ? 'no results list' : `${received} result${received === 1 ? '' : 's'}`;
  return new InvalidResponseError(
    `Failed to ${context.label}: the answer holds ${answered} for the ${sent.count} ${sent.count === 1 ? sent.one : sent.name} sent, so results[i] cannot be matched to ${sent.name}[i]. ` +
      `The operation ran: its ${sent.name} were processed, some may have succeeded; check them before sending any again.`,
    { ...errorBase(context), status: context.response?.status ?? 200, problem: 'results_mismatch', executed: true },
  );
}

/** Concatenates the results of consecutive chunks, keeping input order. */
export function mergeBulkResults(parts: readonly BulkResult[]): BulkResult {
  return {
    allSucceeded: parts.every((part) => part.allSucceeded),
    errors: parts.flatMap((part) => part.errors),
    results: parts.flatMap((part) => part.results),
  };
}
