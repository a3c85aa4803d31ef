import type { ResolverContext } from '../graphql/resolver-context.js';
import { meetingView } from '../graphql/views.js';
import type { MeetingRecord } from '../model/records.js';
import { MEETING_MESSAGES } from './meeting-hosting.js';

/** The outcome of one row of a bulk meeting operation. */
export type RowOutcome = { meeting: MeetingRecord; errors: null } | { meeting: null; errors: string[] };

class AtomicRollback extends Error {}

/**
 * Runs one bulk operation's rows in input order. With `atomic: false` each row stands alone. With
 * `atomic: true` a failing row rolls every row back: failing rows keep their errors, the rows that
 * had succeeded report {@link MEETING_MESSAGES.rolledBack}, and the payload's `errors` says why.
 * Returns the bulk payload (`results`, `allSucceeded`, `errors`).
 */
export function runMeetingBatch<T>(
  ctx: ResolverContext,
  rows: readonly T[],
  atomic: boolean,
  processRow: (row: T) => RowOutcome,
) {
  const { school } = ctx;
  let outcomes: RowOutcome[] = [];
  let batchErrors: string[] | null = null;
  if (atomic) {
    try {
      school.transaction(() => {
        outcomes = rows.map(processRow);
        if (outcomes.some((outcome) => outcome.meeting === null)) throw new AtomicRollback();
      });
    } catch (error) {
      if (!(error instanceof AtomicRollback)) throw error;
      const failed = outcomes.filter((outcome) => outcome.meeting === null).length;
      outcomes = outcomes.map((outcome) => (outcome.meeting ? { meeting: null, errors: [MEETING_MESSAGES.rolledBack] } : outcome));
      batchErrors = [`Atomic batch rolled back: ${failed} of ${outcomes.length} rows failed`];
    }
  } else {
    outcomes = rows.map(processRow);
  }
  return {
    results: outcomes.map((outcome) => ({
      meeting: outcome.meeting ? meetingView(school, outcome.meeting) : null,
      errors: outcome.errors,
    })),
    allSucceeded: outcomes.every((outcome) => outcome.meeting !== null),
    errors: batchErrors,
  };
}
