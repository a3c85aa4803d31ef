import { InvalidResponseError } from '../../errors/invalid-response-error.js';
import { parseRowError } from '../../errors/row-error.js';
import { errorBase, type ErrorContext } from '../../response/error-context.js';
import { payloadMessages } from '../../response/payload-messages.js';
import type { ConsultingMeetingBulkResultFieldsFragment } from '../../generated/graphql.js';
import type { Unchecked } from '../types/guaranteed-fields.js';
import type { BulkResult } from '../types/types.js';

/** The bulk payload as the documents select it. */
export interface BulkPayload {
  results: ConsultingMeetingBulkResultFieldsFragment[] | null;
  allSucceeded: boolean | null;
  errors: string[] | null;
}

/**
 * Turns a bulk payload into a {@link BulkResult}: row errors stay per row (never thrown), each
 * string parsed for its code and `valid_options=` hint. Row meetings are as sent; the operation's
 * unwrap checks their guaranteed fields.
 *
 * @throws {InvalidResponseError} (`results_mismatch`, `ran: 'yes'`) when `results` is not one
 * entry per row of `rows` (the spec: same length and order as the input; `name` is how the method
 * calls them): `results[i]` would no longer belong to row `i`, yet the rows were processed.
 */
export function toBulkResult(payload: BulkPayload, rows: unknown, name: string, context: ErrorContext): Unchecked<BulkResult> {
  // GraphQL reads a single item where a list is expected as a list of one.
  const count = Array.isArray(rows) ? rows.length : 1;
  const received = Array.isArray(payload.results) ? payload.results.length : undefined;
  if (received !== count) throw resultsMismatch(context, count, name, received);
  const results = (payload.results ?? []).map((row) => ({
    meeting: row?.meeting ?? null,
    errors: payloadMessages(row?.errors).map(parseRowError),
  }));
  return {
    allSucceeded: typeof payload.allSucceeded === 'boolean' ? payload.allSucceeded : results.every((row) => row.meeting !== null),
    errors: payloadMessages(payload.errors),
    results,
  };
}

function resultsMismatch(context: ErrorContext, count: number, name: string, received: number | undefined): InvalidResponseError {
  return new InvalidResponseError(
    `Failed to ${context.label}: the answer has ${received ?? 'no'} results for ${count} ${name}, so they cannot be matched. The operation ran: check the ${name} before sending any again.`,
    { ...errorBase(context), status: context.response?.status ?? 200, problem: 'results_mismatch', ran: 'yes' },
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
