import { describe, expect, it } from 'vitest';
import {
  AmbiguousLocalTimeError,
  InvalidTimeInputError,
  NonexistentLocalTimeError,
  UnknownTimeZoneError,
  parseSlotPatterns,
  planWeeklySlots,
  unixToLocal,
  weeklySlots,
} from '../../src/scheduling/index.js';
import type { MeetingRowInput } from '../../src/client/types/types.js';
import { utc } from './utc-seconds.js';

const starts = (rows: MeetingRowInput[]): number[] => rows.map((row) => Number(row.startedAt));
const localTimes = (rows: MeetingRowInput[], timeZone: string): string[] =>
  rows.map((row) => {
    const start = unixToLocal(Number(row.startedAt), timeZone);
    const end = unixToLocal(Number(row.endedAt), timeZone);
    return `${start.weekday} ${start.time}-${end.time}`;
  });

describe('weeklySlots keeps the local wall time of every slot across DST changes', () => {
  it('America/New_York, spring forward (2026-03-08): 10:00 stays 10:00, the UTC instant moves from 15:00Z to 14:00Z', () => {
    const rows = weeklySlots({ timeZone: 'America/New_York', from: '2026-03-01', to: '2026-03-14', days: ['tue', 'thu'], start: '10:00', end: '11:00' });
    expect(starts(rows)).toEqual([utc(2026, 3, 3, 15), utc(2026, 3, 5, 15), utc(2026, 3, 10, 14), utc(2026, 3, 12, 14)]);
    expect(rows.map((row) => Number(row.endedAt) - Number(row.startedAt))).toEqual([3600, 3600, 3600, 3600]);
    expect(localTimes(rows, 'America/New_York')).toEqual(['tue 10:00:00-11:00:00', 'thu 10:00:00-11:00:00', 'tue 10:00:00-11:00:00', 'thu 10:00:00-11:00:00']);
  });

  it('America/New_York, fall back (2026-11-01): the UTC instant moves from 14:00Z to 15:00Z', () => {
    const rows = weeklySlots({ timeZone: 'America/New_York', from: '2026-10-25', to: '2026-11-07', days: ['tue', 'thu'], start: '10:00', end: '11:00' });
    expect(starts(rows)).toEqual([utc(2026, 10, 27, 14), utc(2026, 10, 29, 14), utc(2026, 11, 3, 15), utc(2026, 11, 5, 15)]);
  });

  it('Europe/Berlin across both transitions (2026-03-29 and 2026-10-25)', () => {
    const spring = weeklySlots({ timeZone: 'Europe/Berlin', from: '2026-03-23', to: '2026-04-05', days: ['mon'], start: '09:00', end: '09:30' });
    expect(starts(spring)).toEqual([utc(2026, 3, 23, 8), utc(2026, 3, 30, 7)]);
    const autumn = weeklySlots({ timeZone: 'Europe/Berlin', from: '2026-10-19', to: '2026-11-01', days: ['mon'], start: '09:00', end: '09:30' });
    expect(starts(autumn)).toEqual([utc(2026, 10, 19, 7), utc(2026, 10, 26, 8)]);
    expect(localTimes([...spring, ...autumn], 'Europe/Berlin')).toEqual(Array(4).fill('mon 09:00:00-09:30:00'));
  });

  it('Asia/Taipei (no transitions): the same UTC hour all year', () => {
    const rows = weeklySlots({ timeZone: 'Asia/Taipei', from: '2026-01-01', to: '2026-12-31', days: ['wed'], start: '10:00', end: '11:00' });
    expect(rows).toHaveLength(52);
    expect(new Set(rows.map((row) => new Date(Number(row.startedAt) * 1000).toISOString().slice(11)))).toEqual(new Set(['02:00:00.000Z']));
  });
});

describe('weeklySlots produces bulkCreateMeetings rows', () => {
  it('the date range is inclusive at both ends', () => {
    const rows = weeklySlots({ timeZone: 'UTC', from: '2026-03-03', to: '2026-03-10', days: ['tue'], start: '10:00', end: '11:00' });
    expect(starts(rows)).toEqual([utc(2026, 3, 3, 10), utc(2026, 3, 10, 10)]);
  });

  it('several patterns come out in chronological order, whatever the order of the patterns', () => {
    const rows = weeklySlots({
      timeZone: 'UTC',
      from: '2026-03-02',
      to: '2026-03-08',
      patterns: parseSlotPatterns(['Wed,Fri 14:00-15:00', 'Mon 09:00-09:30', 'Wed 08:00-08:30']),
    });
    expect(localTimes(rows, 'UTC')).toEqual(['mon 09:00:00-09:30:00', 'wed 08:00:00-08:30:00', 'wed 14:00:00-15:00:00', 'fri 14:00:00-15:00:00']);
    expect(starts(rows)).toEqual([...starts(rows)].sort((a, b) => a - b));
  });

  it('copies the row template (capacity, hosting options, price, title) into every row', () => {
    const row = { maxAttendeeCapacity: 3, hostingType: 'custom', joinUrl: 'https://meet.example/a', price: 20, title: 'Office hour', hostUserId: 'u-1', lecturerId: 'l-1', description: 'd' } as const;
    const rows = weeklySlots({ timeZone: 'Asia/Taipei', from: '2026-03-02', to: '2026-03-03', days: ['mon', 'tue'], start: '10:00', end: '11:00', row });
    expect(rows).toEqual([
      { ...row, startedAt: utc(2026, 3, 2, 2), endedAt: utc(2026, 3, 2, 3) },
      { ...row, startedAt: utc(2026, 3, 3, 2), endedAt: utc(2026, 3, 3, 3) },
    ]);
  });

  it('a range without any of the days gives no rows', () => {
    expect(weeklySlots({ timeZone: 'UTC', from: '2026-03-03', to: '2026-03-04', days: ['sun'], start: '10:00', end: '11:00' })).toEqual([]);
  });
});

describe('weeklySlots: slots in a gap or an overlap', () => {
  const sundays = { timeZone: 'America/New_York', from: '2026-03-01', to: '2026-03-15', days: ['sun'] as const };

  it('a slot in the spring-forward gap is refused by default (nonexistent: "reject")', () => {
    const attempt = () => weeklySlots({ ...sundays, start: '02:30', end: '03:30' });
    expect(attempt).toThrow(NonexistentLocalTimeError);
    expect(attempt).toThrow(expect.objectContaining({ date: '2026-03-08', time: '02:30', operation: 'weeklySlots' }));
  });

  it('a slot whose end is in the gap is refused too', () => {
    expect(() => weeklySlots({ ...sundays, start: '01:30', end: '02:15' })).toThrow(expect.objectContaining({ name: 'NonexistentLocalTimeError', time: '02:15' }));
  });

  it('nonexistent: "skip" leaves that slot out, reports it, and keeps the other weeks', () => {
    const plan = planWeeklySlots({ ...sundays, start: '02:30', end: '03:30', nonexistent: 'skip' });
    expect(starts(plan.rows)).toEqual([utc(2026, 3, 1, 7, 30), utc(2026, 3, 15, 6, 30)]);
    expect(plan.skipped).toEqual([{ date: '2026-03-08', weekday: 'sun', start: '02:30', end: '03:30', reason: 'nonexistent_local_time' }]);
    expect(weeklySlots({ ...sundays, start: '02:30', end: '03:30', nonexistent: 'skip' })).toEqual(plan.rows);
  });

  const fallBack = { timeZone: 'America/New_York', from: '2026-11-01', to: '2026-11-01', days: ['sun'] as const, start: '01:30', end: '02:30' };

  it('a slot at a repeated time is refused by default (repeated: "reject"), naming both instants', () => {
    expect(() => weeklySlots(fallBack)).toThrow(AmbiguousLocalTimeError);
    expect(() => weeklySlots(fallBack)).toThrow(expect.objectContaining({ earlier: utc(2026, 11, 1, 5, 30), later: utc(2026, 11, 1, 6, 30) }));
  });

  it('repeated: "earlier" / "later" choose the occurrence; the end keeps its wall time', () => {
    expect(weeklySlots({ ...fallBack, repeated: 'earlier' })).toEqual([{ startedAt: utc(2026, 11, 1, 5, 30), endedAt: utc(2026, 11, 1, 7, 30) }]);
    expect(weeklySlots({ ...fallBack, repeated: 'later' })).toEqual([{ startedAt: utc(2026, 11, 1, 6, 30), endedAt: utc(2026, 11, 1, 7, 30) }]);
  });
});

describe('weeklySlots refuses inconsistent recurrences', () => {
  const base = { timeZone: 'UTC', from: '2026-03-01', to: '2026-03-31', days: ['tue'] as const };

  it.each([
    ['11:00', '10:00'],
    ['10:00', '10:00'],
  ])('a slot whose end (%s-%s) is not after its start is refused', (start, end) => {
    expect(() => weeklySlots({ ...base, start, end })).toThrow(
      expect.objectContaining({ name: 'InvalidTimeInputError', field: 'end', reason: 'end_not_after_start' }),
    );
  });

  it('`to` before `from` is refused (range_reversed)', () => {
    expect(() => weeklySlots({ ...base, from: '2026-03-31', to: '2026-03-01', start: '10:00', end: '11:00' })).toThrow(
      expect.objectContaining({ field: 'to', reason: 'range_reversed' }),
    );
  });

  it('no days (or no patterns), or an unknown day, is refused', () => {
    expect(() => weeklySlots({ ...base, days: [], start: '10:00', end: '11:00' })).toThrow(expect.objectContaining({ reason: 'no_days' }));
    expect(() => weeklySlots({ timeZone: 'UTC', from: '2026-03-01', to: '2026-03-31', patterns: [] })).toThrow(
      expect.objectContaining({ field: 'patterns', reason: 'no_days' }),
    );
    const days = ['tue', 'tuesday-ish'] as unknown as ['tue'];
    expect(() => weeklySlots({ ...base, days, start: '10:00', end: '11:00' })).toThrow(expect.objectContaining({ reason: 'bad_weekday', value: 'tuesday-ish' }));
  });

  it('malformed dates and times, and unknown zones, are refused with typed errors', () => {
    expect(() => weeklySlots({ ...base, from: '2026-02-30', start: '10:00', end: '11:00' })).toThrow(InvalidTimeInputError);
    expect(() => weeklySlots({ ...base, start: '10', end: '11:00' })).toThrow(expect.objectContaining({ field: 'start', reason: 'bad_time' }));
    expect(() => weeklySlots({ ...base, timeZone: 'Europe/Berlinn', start: '10:00', end: '11:00' })).toThrow(UnknownTimeZoneError);
  });
});
