import { describe, expect, it } from 'vitest';
import { BulkChunkError, InvalidInputError, InvalidResponseError } from '../../src/index.js';
import { meeting } from '../support/fixtures.js';
import { useScriptedAdminApi, testClient } from '../support/scripted-admin-api.js';

const api = useScriptedAdminApi();

const start = 1_800_000_000;
const rows = (count: number) => Array.from({ length: count }, (_, index) => ({ startedAt: start + index * 3600, endedAt: start + index * 3600 + 1800 }));
const okRow = (id: string) => ({ meeting: meeting({ id }), errors: null });

describe('bulkCreateMeetings (bulkCreateConsultingMeetings)', () => {
  it('sends serviceId, the rows as inputs (Dates as Unix seconds) and no atomic flag by default', async () => {
    api.data({ bulkCreateConsultingMeetings: { results: [okRow('m-1')], allSucceeded: true, errors: null } });
    await testClient().bulkCreateMeetings('svc-1', [
      { startedAt: new Date(start * 1000), endedAt: new Date((start + 3600) * 1000), maxAttendeeCapacity: 3, hostingType: 'live_session' },
    ]);
    expect(api.last.query.startsWith('mutation BulkCreateConsultingMeetings')).toBe(true);
    expect(api.last.variables).toEqual({
      serviceId: 'svc-1',
      inputs: [{ startedAt: start, endedAt: start + 3600, maxAttendeeCapacity: 3, hostingType: 'live_session' }],
    });
  });

  it('sends atomic: true when asked', async () => {
    api.data({ bulkCreateConsultingMeetings: { results: [okRow('m-1')], allSucceeded: true, errors: null } });
    await testClient().bulkCreateMeetings('svc-1', rows(1), { atomic: true });
    expect(api.last.variables.atomic).toBe(true);
  });

  it('"results[i] corresponds to input row i": mixed success and failure stay per row, parsed', async () => {
    const hosts = Array.from({ length: 20 }, (_, index) => `ta-${index}`);
    api.data({
      bulkCreateConsultingMeetings: {
        results: [
          okRow('m-1'),
          { meeting: null, errors: ['MEETING-012: hostUserId must be the owner or a teaching assistant valid_options=owner-1,ta-1'] },
          { meeting: null, errors: [`MEETING-012: hostUserId invalid valid_options=${hosts.join(',')} (truncated; call meetingHosts / videoHosts for the full list)`] },
          { meeting: null, errors: ['Video platform API error: quota exceeded'] },
          okRow('m-5'),
        ],
        allSucceeded: false,
        errors: [],
      },
    });
    const result = await testClient().bulkCreateMeetings('svc-1', rows(5));
    expect(result.allSucceeded).toBe(false);
    expect(result.results.map((row) => row.meeting?.id ?? null)).toEqual(['m-1', null, null, null, 'm-5']);
    expect(result.results[0]?.errors).toEqual([]);
    expect(result.results[1]?.errors).toEqual([
      { message: expect.stringContaining('MEETING-012'), code: 'MEETING-012', validOptions: ['owner-1', 'ta-1'], validOptionsTruncated: false },
    ]);
    expect(result.results[2]?.errors[0]).toMatchObject({ code: 'MEETING-012', validOptions: hosts, validOptionsTruncated: true });
    expect(result.results[3]?.errors[0]).toEqual({ message: 'Video platform API error: quota exceeded', validOptionsTruncated: false });
  });

  it('"BulkRow.errors and BulkResult.errors are both arrays, empty when there is nothing" (issue 30): null from the server is []', async () => {
    api.data({ bulkCreateConsultingMeetings: { results: [okRow('m-1'), { meeting: null, errors: ['MEETING-008: joinUrl missing'] }], allSucceeded: false, errors: null } });
    const result = await testClient().bulkCreateMeetings('svc-1', rows(2));
    expect(result.errors).toEqual([]);
    expect(result.results.map((row) => row.errors.map((error) => error.code).join(','))).toEqual(['', 'MEETING-008']);
  });

  it('row errors for each documented row code are recognised wherever the code stands', async () => {
    const messages = [
      'Custom hosting requires a joinUrl (MEETING-008)',
      'MEETING-009 videoconf needs an active integration',
      'Host email missing [MEETING-011] valid_options=a@school.test,b@school.test',
      'row failed: MEETING-012 valid_options=owner-1',
    ];
    api.data({ bulkCreateConsultingMeetings: { results: messages.map((message) => ({ meeting: null, errors: [message] })), allSucceeded: false, errors: [] } });
    const result = await testClient().bulkCreateMeetings('svc-1', rows(4));
    expect(result.results.map((row) => row.errors[0]?.code)).toEqual(['MEETING-008', 'MEETING-009', 'MEETING-011', 'MEETING-012']);
    expect(result.results[2]?.errors[0]?.validOptions).toEqual(['a@school.test', 'b@school.test']);
  });

  it('"returns timestamps as numbers" inside rows too', async () => {
    api.data({ bulkCreateConsultingMeetings: { results: [{ meeting: meeting({ startedAt: '1800000000', endedAt: '1800003600' }), errors: null }], allSucceeded: true, errors: null } });
    const result = await testClient().bulkCreateMeetings('svc-1', rows(1));
    expect(result.results[0]?.meeting).toMatchObject({ startedAt: 1_800_000_000, endedAt: 1_800_003_600 });
  });

  it('sends more rows than bulkChunkSize in chunks and returns results in input order', async () => {
    api.answer((request) => {
      const inputs = request.variables.inputs as { startedAt: number }[];
      return {
        body: {
          data: {
            bulkCreateConsultingMeetings: { results: inputs.map((row) => okRow(`m-${row.startedAt}`)), allSucceeded: true, errors: null },
          },
        },
      };
    });
    const input = rows(7);
    const result = await testClient({ bulkChunkSize: 3 }).bulkCreateMeetings('svc-1', input);
    expect(api.requests.map((request) => (request.variables.inputs as unknown[]).length)).toEqual([3, 3, 1]);
    expect(result.results.map((row) => row.meeting?.id)).toEqual(input.map((row) => `m-${row.startedAt}`));
    expect(result.allSucceeded).toBe(true);
  });

  it('refuses to split an atomic batch larger than bulkChunkSize, sending nothing', async () => {
    const error = await testClient({ bulkChunkSize: 3 }).bulkCreateMeetings('svc-1', rows(4), { atomic: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: 'atomic', local: true });
    expect(api.requests).toHaveLength(0);
  });

  it('an empty row list resolves without a request', async () => {
    expect(await testClient().bulkCreateMeetings('svc-1', [])).toEqual({ allSucceeded: true, errors: [], results: [] });
    expect(api.requests).toHaveLength(0);
  });
});

describe('updateMeeting (updateConsultingMeeting)', () => {
  it('sends id and the provided fields, Dates as Unix seconds', async () => {
    api.data({ updateConsultingMeeting: { meeting: meeting({ maxAttendeeCapacity: 6 }), errors: null } });
    const updated = await testClient().updateMeeting('m-1', { maxAttendeeCapacity: 6, startedAt: new Date(start * 1000) });
    expect(api.last.variables).toEqual({ id: 'm-1', input: { maxAttendeeCapacity: 6, startedAt: start } });
    expect(updated.maxAttendeeCapacity).toBe(6);
  });
});

describe('cancelMeeting (cancelConsultingMeeting)', () => {
  it('returns the meeting in state canceled', async () => {
    api.data({ cancelConsultingMeeting: { meeting: meeting({ state: 'canceled' }), errors: null } });
    expect((await testClient().cancelMeeting('m-1')).state).toBe('canceled');
    expect(api.last.variables).toEqual({ id: 'm-1' });
  });
});

describe('bulkCancelMeetings (bulkCancelConsultingMeetings)', () => {
  it('keeps per-row MEETING-001 / MEETING-007 failures in input order', async () => {
    api.data({
      bulkCancelConsultingMeetings: {
        results: [
          { meeting: meeting({ id: 'm-1', state: 'canceled' }), errors: null },
          { meeting: null, errors: ['MEETING-001: meeting not found'] },
          { meeting: null, errors: ['MEETING-007: meeting is already canceled'] },
        ],
        allSucceeded: false,
        errors: [],
      },
    });
    const result = await testClient().bulkCancelMeetings(['m-1', 'm-x', 'm-3']);
    expect(api.last.variables).toEqual({ ids: ['m-1', 'm-x', 'm-3'] });
    expect(result.results.map((row) => row.errors?.[0]?.code ?? row.meeting?.state)).toEqual(['canceled', 'MEETING-001', 'MEETING-007']);
  });
});

describe('bulk answers: "results[i] corresponds to input row i", one result per row sent', () => {
  const answer = (field: string, results: unknown) => api.data({ [field]: { results, allSucceeded: true, errors: null } });

  it.each([
    ['fewer results than rows', [okRow('m-1'), okRow('m-2')], 'has 2 results for 3 rows'],
    ['more results than rows', [okRow('m-1'), okRow('m-2'), okRow('m-3'), okRow('m-4')], 'has 4 results for 3 rows'],
    ['no results list', null, 'has no results for 3 rows'],
  ])('bulkCreateMeetings, %s: InvalidResponseError results_mismatch, executed, saying the rows ran', async (_case, results, count) => {
    answer('bulkCreateConsultingMeetings', results);
    const error = await testClient().bulkCreateMeetings('svc-1', rows(3)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ problem: 'results_mismatch', executed: true, status: 200, operation: 'bulkCreateMeetings' });
    expect((error as Error).message).toBe(
      `Failed to create the meetings: the answer ${count}, so they cannot be matched. The operation ran: check the rows before sending any again.`,
    );
    expect(api.requests).toHaveLength(1); // executed: never sent again
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ problem: 'results_mismatch', executed: true });
  });

  it('bulkCancelMeetings the same, naming the ids', async () => {
    answer('bulkCancelConsultingMeetings', [{ meeting: meeting({ id: 'm-1', state: 'canceled' }), errors: null }]);
    const error = await testClient().bulkCancelMeetings(['m-1', 'm-2']).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'InvalidResponseError', problem: 'results_mismatch', executed: true });
    expect((error as Error).message).toContain('has 1 results for 2 ids, so they cannot be matched. The operation ran: check the ids before');
  });

  it('a chunk answered with too few results ends the chunked call: its fate is "executed", later chunks never sent', async () => {
    api.answer(
      { body: { data: { bulkCreateConsultingMeetings: { results: [okRow('m-1'), okRow('m-2')], allSucceeded: true, errors: null } } } },
      { body: { data: { bulkCreateConsultingMeetings: { results: [okRow('m-3')], allSucceeded: true, errors: null } } } },
    );
    const error = await testClient({ bulkChunkSize: 2 }).bulkCreateMeetings('svc-1', rows(5)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BulkChunkError);
    expect(error).toMatchObject({ failedChunk: { start: 2, end: 4, fate: 'executed' }, notSent: { start: 4, end: 5 } });
    expect((error as BulkChunkError).cause).toMatchObject({ problem: 'results_mismatch' });
    expect(api.requests).toHaveLength(2);
  });
});
