import { describe, expect, it } from 'vitest';
import { BulkChunkError, CodedError, HttpError, MemoryPermitStore, RateLimitError, type AdminClient, type MeetingRowInput } from '../../src/index.js';
import { meeting } from '../support/fixtures.js';
import type { FaultAction, FaultStep } from './support/fault-server.js';
import { failureOf, faultClient, json } from './support/operation-cases.js';
import type { RawRequest } from './support/raw-http.js';
import { useFaultServer } from './support/use-fault-server.js';

const server = useFaultServer();

const CHUNK = 3;
const rows = (count: number): MeetingRowInput[] => Array.from({ length: count }, (_, index) => ({ startedAt: 1_800_000_000 + index * 3_600, endedAt: 1_800_001_800 + index * 3_600 }));
/** Rows the fake server created, by startedAt: a row created twice shows up twice. */
let created: number[] = [];

/** Creates every row of the request, as the API does, and answers with one meeting per row. */
const createRows = (request: RawRequest): FaultAction => {
  const inputs = request.variables.inputs as { startedAt: number }[];
  created.push(...inputs.map((row) => row.startedAt));
  return json({ data: { bulkCreateConsultingMeetings: { allSucceeded: true, errors: null, results: inputs.map((row) => ({ meeting: meeting({ id: `m-${row.startedAt}`, startedAt: row.startedAt }), errors: null })) } } });
};
/** Cancels every id of the request. */
const cancelRows = (request: RawRequest): FaultAction => {
  const ids = request.variables.ids as string[];
  return json({ data: { bulkCancelConsultingMeetings: { allSucceeded: true, errors: null, results: ids.map((id) => ({ meeting: meeting({ id, state: 'canceled' }), errors: null })) } } });
};
/** The first `okChunks` requests are served by `ok`, then `failure` answers every request. */
function chunksThen(okChunks: number, ok: (request: RawRequest) => FaultAction, failure: FaultAction): FaultStep {
  let seen = 0;
  return (request) => {
    seen += 1;
    return seen <= okChunks ? ok(request) : failure;
  };
}
const coded = (code: string) => json({ data: null, errors: [{ message: code, path: ['bulkCreateConsultingMeetings'], extensions: { error: { code, message: code, details: {} } } }] });

describe('a failed chunk of a chunked bulk call throws BulkChunkError: what finished, what was never sent, what is unknown', () => {
  // Regression: when chunk 2 failed the thrown error held no trace of chunk 1's created meetings,
  // so the natural retry of the whole list created them twice.
  it('chunk 2 of 3 answered 503: completed holds chunk 1\'s rows (typed, in input order, with input indexes); chunk 2\'s fate is unknown; chunk 3 was never sent', async () => {
    created = [];
    server.script(chunksThen(1, createRows, { kind: 'respond', status: 503, body: '<h1>busy</h1>' }));
    const input = rows(7);
    const { error } = await failureOf(() => faultClient(server, { bulkChunkSize: CHUNK }).bulkCreateMeetings('svc-1', input));
    expect(server.arrivals('bulkCreateConsultingMeetings')).toBe(2);
    expect(error).toBeInstanceOf(BulkChunkError);
    const failure = error as BulkChunkError;
    expect(failure.completed.map((row) => row.index)).toEqual([0, 1, 2]);
    expect(failure.completed.map((row) => row.meeting?.id)).toEqual(input.slice(0, 3).map((row) => `m-${String(row.startedAt)}`));
    expect(failure.completed.every((row) => row.errors.length === 0)).toBe(true);
    expect(failure.failedChunk).toEqual({ start: 3, end: 6, fate: 'unknown' });
    expect(failure.notSent).toEqual({ start: 6, end: 7 });
    expect(failure.cause).toBeInstanceOf(HttpError);
    expect(failure.message).toBe('Failed to create the meetings: chunk 2 of 3 (rows 3 to 5) failed with HttpError; rows 0 to 2 finished (error.completed holds the results), row 6 never sent. The server may have executed rows 3 to 5: check them before sending them again.');
    expect(JSON.parse(JSON.stringify(failure))).toMatchObject({ name: 'BulkChunkError', completedRows: 3, failedChunk: { start: 3, end: 6, fate: 'unknown' }, notSent: { start: 6, end: 7 } });
  });

  it('a chunk refused as a whole with a coded error (CONSULTING-001): its fate is "not_executed"', async () => {
    server.script(chunksThen(1, createRows, coded('CONSULTING-001')));
    const { error } = await failureOf(() => faultClient(server, { bulkChunkSize: CHUNK }).bulkCreateMeetings('svc-1', rows(7)));
    expect(error).toMatchObject({ name: 'BulkChunkError', failedChunk: { start: 3, end: 6, fate: 'not_executed' } });
    expect((error as BulkChunkError).cause).toBeInstanceOf(CodedError);
  });

  it('the first chunk fails: nothing completed, everything after it never sent', async () => {
    server.script({ kind: 'reset-after-read' });
    const { error } = await failureOf(() => faultClient(server, { bulkChunkSize: CHUNK }).bulkCreateMeetings('svc-1', rows(7)));
    expect(error).toMatchObject({ name: 'BulkChunkError', completed: [], failedChunk: { start: 0, end: 3, fate: 'unknown' }, notSent: { start: 3, end: 7 } });
    expect(server.arrivals('bulkCreateConsultingMeetings')).toBe(1);
  });

  it('bulkCancelMeetings, chunked the same way, reports the same', async () => {
    server.script(chunksThen(2, cancelRows, { kind: 'respond', status: 502, body: 'bad gateway' }));
    const ids = Array.from({ length: 8 }, (_, index) => `m-${index}`);
    const { error } = await failureOf(() => faultClient(server, { bulkChunkSize: CHUNK }).bulkCancelMeetings(ids));
    expect(error).toBeInstanceOf(BulkChunkError);
    expect((error as BulkChunkError).completed.map((row) => [row.index, row.meeting?.id])).toEqual(ids.slice(0, 6).map((id, index) => [index, id]));
    expect(error).toMatchObject({ failedChunk: { start: 6, end: 8, fate: 'unknown' }, notSent: { start: 8, end: 8 } });
  });

  it('the documented resume: a chunk that surely did not run (429 past maxRateLimitWaitMs) is sent again with the rest, and every row is created exactly once', async () => {
    created = [];
    const tooMany = json({ errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATE_LIMIT_EXCEEDED', retry_after: 3_600 } }] }, 429, { 'Retry-After': '3600' });
    server.script(chunksThen(1, createRows, tooMany));
    const admin = faultClient(server, { bulkChunkSize: CHUNK, maxRateLimitWaitMs: 10 });
    const input = rows(7);
    const { error } = await failureOf(() => admin.bulkCreateMeetings('svc-1', input));
    expect(error).toBeInstanceOf(BulkChunkError);
    const failure = error as BulkChunkError;
    expect(failure.cause).toBeInstanceOf(RateLimitError);
    expect(failure.failedChunk.fate).toBe('not_executed');

    server.reset();
    server.script(createRows);
    const rest = await admin.bulkCreateMeetings('svc-1', input.slice(failure.failedChunk.start));
    const all = [...failure.completed.map((row) => row.meeting?.id), ...rest.results.map((row) => row.meeting?.id)];
    expect(all).toEqual(input.map((row) => `m-${String(row.startedAt)}`));
    expect([...created].sort()).toEqual(input.map((row) => row.startedAt).sort());
  });

  describe('a chunk whose call ended before its request left (an abort) was never sent: its fate is "not_executed", not "unknown"', () => {
    /** Aborts `controller` as soon as the first chunk's answer has arrived, before the second chunk's call starts. */
    const abortAfterFirstAnswer = (admin: AdminClient, controller: AbortController): void => {
      admin.on('response', () => controller.abort(new Error('stopped by the caller')));
    };

    it.each([
      ['unpaced (limits: false)', {}],
      ['paced', { limits: { store: new MemoryPermitStore() } }],
    ] as const)('%s: the signal was already aborted when chunk 2\'s call began', async (_name, options) => {
      server.script(createRows);
      const admin = faultClient(server, { bulkChunkSize: CHUNK, ...options });
      const controller = new AbortController();
      abortAfterFirstAnswer(admin, controller);
      const { error } = await failureOf(() => admin.bulkCreateMeetings('svc-1', rows(7), { signal: controller.signal }));
      expect(server.arrivals('bulkCreateConsultingMeetings')).toBe(1);
      expect(error).toMatchObject({ name: 'BulkChunkError', failedChunk: { start: 3, end: 6, fate: 'not_executed' }, notSent: { start: 6, end: 7 } });
      expect((error as BulkChunkError).completed.map((row) => row.index)).toEqual([0, 1, 2]);
      expect((error as Error).message).toBe(
        'Failed to create the meetings: chunk 2 of 3 (rows 3 to 5) was never sent: its call ended with Error; rows 0 to 2 finished (error.completed holds the results), row 6 never sent. Nothing of rows 3 to 5 was executed: send them again with the rest.',
      );
    });

    it('paced: the signal aborted while chunk 2 waited for its rate-limit slot', async () => {
      server.script(createRows);
      // One mutation per minute, in a store of this test's own: chunk 2 waits for a slot.
      const admin = faultClient(server, { bulkChunkSize: CHUNK, limits: { mutations: { limit: 1, windowMs: 60_000 }, store: new MemoryPermitStore(), waitingThresholdMs: 0 } });
      const controller = new AbortController();
      admin.on('waiting', () => controller.abort(new Error('stopped by the caller')));
      const { error } = await failureOf(() => admin.bulkCreateMeetings('svc-1', rows(7), { signal: controller.signal }));
      expect(server.arrivals('bulkCreateConsultingMeetings')).toBe(1);
      expect(error).toMatchObject({ name: 'BulkChunkError', failedChunk: { start: 3, end: 6, fate: 'not_executed' } });
    });

    it('an abort while the chunk\'s request is on the wire stays "unknown" (it may have arrived)', async () => {
      let seen = 0;
      const controller = new AbortController();
      server.script((request) => {
        seen += 1;
        if (seen === 1) return createRows(request);
        controller.abort(new Error('stopped by the caller'));
        return { kind: 'hang' };
      });
      const { error } = await failureOf(() => faultClient(server, { bulkChunkSize: CHUNK }).bulkCreateMeetings('svc-1', rows(7), { signal: controller.signal }));
      expect(error).toMatchObject({ name: 'BulkChunkError', failedChunk: { start: 3, end: 6, fate: 'unknown' } });
    });
  });

  it('an input that fits one chunk is one call: its error is the plain error, not a BulkChunkError', async () => {
    server.script({ kind: 'respond', status: 503, body: 'busy' });
    const { error } = await failureOf(() => faultClient(server, { bulkChunkSize: CHUNK }).bulkCreateMeetings('svc-1', rows(3)));
    expect(error).toBeInstanceOf(HttpError);
    expect(error).not.toBeInstanceOf(BulkChunkError);
  });
});
