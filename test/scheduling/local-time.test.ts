import { describe, expect, it } from 'vitest';
import {
  AmbiguousLocalTimeError,
  InvalidTimeInputError,
  NonexistentLocalTimeError,
  UnknownTimeZoneError,
  localTimeToUnix,
  unixToLocal,
} from '../../src/scheduling/index.js';
import { AdminApiError } from '../../src/errors/admin-api-error.js';
import { utc } from './utc-seconds.js';

describe('localTimeToUnix: local wall time in an IANA zone to Unix seconds', () => {
  it.each([
    ['America/New_York', '2026-03-07', '10:00', utc(2026, 3, 7, 15)],
    ['America/New_York', '2026-03-09', '10:00', utc(2026, 3, 9, 14)],
    ['America/New_York', '2026-10-31', '10:00', utc(2026, 10, 31, 14)],
    ['America/New_York', '2026-11-02', '10:00', utc(2026, 11, 2, 15)],
    ['Europe/Berlin', '2026-03-28', '10:00', utc(2026, 3, 28, 9)],
    ['Europe/Berlin', '2026-03-30', '10:00', utc(2026, 3, 30, 8)],
    ['Europe/Berlin', '2026-10-24', '10:00', utc(2026, 10, 24, 8)],
    ['Europe/Berlin', '2026-10-26', '10:00', utc(2026, 10, 26, 9)],
    ['Asia/Taipei', '2026-01-15', '10:00', utc(2026, 1, 15, 2)],
    ['Asia/Taipei', '2026-07-15', '10:00', utc(2026, 7, 15, 2)],
  ])('uses the offset in force on that date: %s %s %s', (zone, date, time, expected) => {
    expect(localTimeToUnix({ date, time }, zone)).toBe(expected);
  });

  it('accepts seconds in the time ("HH:MM:SS")', () => {
    expect(localTimeToUnix({ date: '2026-07-15', time: '10:00:42' }, 'Asia/Taipei')).toBe(utc(2026, 7, 15, 2) + 42);
  });
});

describe('a local time that does not exist (spring-forward gap) throws NonexistentLocalTimeError', () => {
  it.each([
    ['America/New_York', '2026-03-08', '02:30'],
    ['America/New_York', '2026-03-08', '02:00'],
    ['Europe/Berlin', '2026-03-29', '02:30'],
  ])('%s %s %s', (timeZone, date, time) => {
    const attempt = () => localTimeToUnix({ date, time }, timeZone, { repeated: 'earlier' });
    expect(attempt).toThrow(NonexistentLocalTimeError);
    expect(attempt).toThrow(expect.objectContaining({ date, time, timeZone, operation: 'localTimeToUnix' }));
  });

  it('the error is an AdminApiError whose message says what failed and what to do', () => {
    try {
      localTimeToUnix({ date: '2026-03-08', time: '02:30' }, 'America/New_York');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AdminApiError);
      expect((error as Error).message).toMatch(/^Failed to localTimeToUnix: local time 2026-03-08 02:30 does not exist in America\/New_York.*Choose a time outside the gap\.$/);
      expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name: 'NonexistentLocalTimeError', date: '2026-03-08', time: '02:30', timeZone: 'America/New_York' });
    }
  });

  it('the minutes just around the gap exist', () => {
    expect(localTimeToUnix({ date: '2026-03-08', time: '01:59' }, 'America/New_York')).toBe(utc(2026, 3, 8, 6, 59));
    expect(localTimeToUnix({ date: '2026-03-08', time: '03:00' }, 'America/New_York')).toBe(utc(2026, 3, 8, 7));
  });
});

describe('a local time that occurs twice (fall-back overlap) needs an explicit choice', () => {
  const cases = [
    { timeZone: 'America/New_York', date: '2026-11-01', time: '01:30', earlier: utc(2026, 11, 1, 5, 30), later: utc(2026, 11, 1, 6, 30) },
    { timeZone: 'Europe/Berlin', date: '2026-10-25', time: '02:30', earlier: utc(2026, 10, 25, 0, 30), later: utc(2026, 10, 25, 1, 30) },
  ];

  it.each(cases)('default "reject" throws AmbiguousLocalTimeError naming both instants ($timeZone)', ({ timeZone, date, time, earlier, later }) => {
    const attempt = () => localTimeToUnix({ date, time }, timeZone);
    expect(attempt).toThrow(AmbiguousLocalTimeError);
    expect(attempt).toThrow(expect.objectContaining({ date, time, timeZone, earlier, later }));
    expect(() => localTimeToUnix({ date, time }, timeZone, { repeated: 'reject' })).toThrow(AmbiguousLocalTimeError);
  });

  it.each(cases)('"earlier" and "later" pick the first and second occurrence ($timeZone)', ({ timeZone, date, time, earlier, later }) => {
    expect(localTimeToUnix({ date, time }, timeZone, { repeated: 'earlier' })).toBe(earlier);
    expect(localTimeToUnix({ date, time }, timeZone, { repeated: 'later' })).toBe(later);
  });

  it('a zone without transitions (Asia/Taipei) never asks for a choice', () => {
    expect(localTimeToUnix({ date: '2026-11-01', time: '01:30' }, 'Asia/Taipei')).toBe(utc(2026, 10, 31, 17, 30));
  });
});

describe('malformed inputs throw typed errors', () => {
  it('an unknown zone name throws UnknownTimeZoneError', () => {
    const attempt = () => localTimeToUnix({ date: '2026-03-01', time: '10:00' }, 'America/NewYork');
    expect(attempt).toThrow(UnknownTimeZoneError);
    expect(attempt).toThrow(expect.objectContaining({ timeZone: 'America/NewYork' }));
    expect(() => unixToLocal(0, '')).toThrow(UnknownTimeZoneError);
  });

  it.each(['2026-02-30', '2026-3-1', '20260301', '2026-03-01T10:00'])('date %j is refused (bad_date)', (date) => {
    expect(() => localTimeToUnix({ date, time: '10:00' }, 'UTC')).toThrow(
      expect.objectContaining({ name: 'InvalidTimeInputError', field: 'date', reason: 'bad_date' }),
    );
  });

  it.each(['24:00', '9:00', '10:60', '10:00:60', 'T10:00', '10h'])('time %j is refused (bad_time)', (time) => {
    expect(() => localTimeToUnix({ date: '2026-03-01', time }, 'UTC')).toThrow(
      expect.objectContaining({ name: 'InvalidTimeInputError', field: 'time', reason: 'bad_time' }),
    );
  });

  it.each([1.5, Number.NaN, Number.POSITIVE_INFINITY, 9e15])('unixToLocal refuses %s (bad_unix_seconds)', (seconds) => {
    expect(() => unixToLocal(seconds, 'UTC')).toThrow(InvalidTimeInputError);
  });
});

describe('unixToLocal: Unix seconds to the local wall time of a zone', () => {
  it('shows date, time, weekday and offset', () => {
    expect(unixToLocal(utc(2026, 3, 9, 14), 'America/New_York')).toEqual({
      date: '2026-03-09',
      time: '10:00:00',
      weekday: 'mon',
      offset: '-04:00',
      timeZone: 'America/New_York',
      repeated: null,
    });
  });

  it('tells which occurrence of a repeated wall time an instant is', () => {
    expect(unixToLocal(utc(2026, 11, 1, 5, 30), 'America/New_York')).toMatchObject({ time: '01:30:00', offset: '-04:00', repeated: 'earlier' });
    expect(unixToLocal(utc(2026, 11, 1, 6, 30), 'America/New_York')).toMatchObject({ time: '01:30:00', offset: '-05:00', repeated: 'later' });
  });

  it('canonicalises the zone name', () => {
    expect(unixToLocal(0, 'asia/taipei')).toMatchObject({ timeZone: 'Asia/Taipei', date: '1970-01-01', time: '08:00:00' });
  });
});
