import { AdminApiError, type Ran } from '../../errors/admin-api-error.js';
import { BulkChunkError, type BulkChunkErrorOptions, type BulkChunkFate, type IndexedBulkRow } from '../../errors/bulk-chunk-error.js';
import type { Redactor } from '../../errors/redactor.js';
import type { LocalContext } from '../../validation/local-errors.js';
import type { BulkResult } from '../types/types.js';

/** Where a chunked bulk call stood when one chunk's call failed. */
export interface ChunkFailure {
  /** Results of the chunks that finished, in order. */
  finished: readonly BulkResult[];
  /** Input indexes of the failed chunk. */
  start: number;
  end: number;
  /** Rows in the whole input. */
  total: number;
  /** 1-based number of the failed chunk, and how many chunks the input made. */
  chunk: number;
  chunks: number;
  /** False when the chunk's call ended before its request left (an abort while it waited): nothing of it ran. */
  sent: boolean;
}

/**
 * Builds the {@link BulkChunkError} of a failed chunk, `cause` being what its call threw. The
 * finished rows are kept as answered but for any API key a server echoed into them (`redactor`).
 */
export function bulkChunkError(context: LocalContext, redactor: Redactor, failure: ChunkFailure, cause: unknown): BulkChunkError {
  const rows = failure.finished.flatMap((part) => part.results);
  const completed: IndexedBulkRow[] = redactor.secretDeep(rows).map((row, index) => ({ ...row, index }));
  const fate = failure.sent ? chunkFate(cause) : 'not_executed';
  const failed = range(failure.start, failure.end);
  const finished = completed.length === 0 ? 'no row finished' : `${range(0, completed.length)} finished (error.completed holds the results)`;
  const unsent = failure.end === failure.total ? 'every other row was sent' : `${range(failure.end, failure.total)} never sent`;
  return new BulkChunkError(
    `Failed to ${context.label}: chunk ${failure.chunk} of ${failure.chunks} (${failed}) ${failure.sent ? 'failed' : 'was never sent: its call ended'} with ${nameOf(cause)}; ${finished}, ${unsent}. ${FATE_ADVICE[fate](failed)}`,
    {
      operation: context.operation,
      ...failedCall(cause),
      cause,
      completed,
      failedChunk: { start: failure.start, end: failure.end, fate },
      notSent: { start: failure.end, end: failure.total },
    },
  );
}

/** The failed chunk's call id and response (status, headers, request id), from the error it ended with. */
function failedCall(cause: unknown): Pick<BulkChunkErrorOptions, 'callId' | 'response'> {
  if (!(cause instanceof AdminApiError)) return {};
  const { callId, status, headers, requestId } = cause;
  return {
    ...(callId === undefined ? {} : { callId }),
    ...(status === undefined || headers === undefined ? {} : { response: { status, headers, requestId } }),
  };
}

const FATE_ADVICE: Record<BulkChunkFate, (rows: string) => string> = {
  not_executed: (rows) => `Nothing of ${rows} was executed: send them again with the rest.`,
  executed: (rows) => `The answer shows that ${rows} ran (see error.cause): do not send them again.`,
  unknown: (rows) => `The server may have executed ${rows}: check them before sending them again.`,
};

/** A chunk's fate from its error's `ran`: one rule for both (see {@link Ran}). */
const FATE_OF: Record<Ran, BulkChunkFate> = { yes: 'executed', no: 'not_executed', unknown: 'unknown' };

/**
 * What is known of a failed chunk whose request left: what its error says of whether it ran
 * (refused as a whole: a documented code, a 429, a refused key, a request error, a 4xx, a request
 * that never reached the server; an answer showing it ran; else it may have run). Anything but an
 * SDK error (a caller's abort reason after the request left) may have run.
 */
function chunkFate(cause: unknown): BulkChunkFate {
  return cause instanceof AdminApiError ? FATE_OF[cause.ran] : 'unknown';
}

function range(start: number, end: number): string {
  return end - start === 1 ? `row ${start}` : `rows ${start} to ${end - 1}`;
}

function nameOf(cause: unknown): string {
  return cause instanceof Error ? cause.name : 'an error';
}
