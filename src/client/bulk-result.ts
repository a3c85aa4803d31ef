import { parseRowError } from '../errors/row-error.js';
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

/**
 * Turns a bulk payload into a {@link BulkResult}: row errors stay per row (never thrown), each
 * string parsed for its code and `valid_options=` hint. Row meetings are as sent; the operation's
 * unwrap checks their guaranteed fields.
 */
export function toBulkResult(payload: BulkPayload): Unchecked<BulkResult> {
  const results = (Array.isArray(payload.results) ? payload.results : []).map((row) => ({
    meeting: row?.meeting ?? null,
    errors: row?.errors === null || row?.errors === undefined ? null : payloadMessages(row.errors).map(parseRowError),
  }));
  return {
    allSucceeded: typeof payload.allSucceeded === 'boolean' ? payload.allSucceeded : results.every((row) => row.meeting !== null),
    errors: payloadMessages(payload.errors),
    results,
  };
}

/** Concatenates the results of consecutive chunks, keeping input order. */
export function mergeBulkResults(parts: readonly BulkResult[]): BulkResult {
  return {
    allSucceeded: parts.every((part) => part.allSucceeded),
    errors: parts.flatMap((part) => part.errors),
    results: parts.flatMap((part) => part.results),
  };
}
