import { describe, expect, it } from 'vitest';
import { SlotPatternError, parseSlotPatterns } from '../../src/scheduling/index.js';
import type { SlotPatternErrorReason } from '../../src/scheduling/index.js';

describe('parseSlotPatterns reads "<days> <HH:MM>-<HH:MM>"', () => {
  it('reads the CLI example "Tue,Thu 10:00-11:00"', () => {
    expect(parseSlotPatterns('Tue,Thu 10:00-11:00')).toEqual([{ days: ['tue', 'thu'], start: '10:00', end: '11:00' }]);
  });

  it('reads several patterns, as an array or separated by ";"', () => {
    const expected = [
      { days: ['mon'], start: '09:00', end: '09:30' },
      { days: ['wed', 'fri'], start: '14:00', end: '15:00' },
    ];
    expect(parseSlotPatterns(['Mon 09:00-09:30', 'Wed,Fri 14:00-15:00'])).toEqual(expected);
    expect(parseSlotPatterns('Mon 09:00-09:30; Wed,Fri 14:00-15:00;')).toEqual(expected);
  });

  it('accepts any case, full day names, spaces after commas and around the dash', () => {
    expect(parseSlotPatterns('tuesday, THU  10:00 - 11:00')).toEqual([{ days: ['tue', 'thu'], start: '10:00', end: '11:00' }]);
  });

  it('expands day ranges, removes repeated days and sorts days in week order', () => {
    expect(parseSlotPatterns('Sun,Mon-Wed,Tue 08:00-09:00')).toEqual([{ days: ['mon', 'tue', 'wed', 'sun'], start: '08:00', end: '09:00' }]);
  });

  it('pads a one-digit hour (9:00 -> 09:00)', () => {
    expect(parseSlotPatterns('Sat 9:00-12:00')).toEqual([{ days: ['sat'], start: '09:00', end: '12:00' }]);
  });
});

describe('parseSlotPatterns refuses malformed patterns with a SlotPatternError', () => {
  it.each<[string | string[], SlotPatternErrorReason]>([
    ['', 'empty'],
    [[' ', ';'], 'empty'],
    ['Tue 10:00', 'bad_syntax'],
    ['10:00-11:00', 'bad_syntax'],
    ['Tue,,Thu 10:00-11:00', 'bad_syntax'],
    ['Mon-Tue-Wed 10:00-11:00', 'bad_syntax'],
    ['Tuz 10:00-11:00', 'unknown_day'],
    ['Fri-Mon 10:00-11:00', 'day_range_reversed'],
    ['Tue 25:00-26:00', 'bad_time'],
    ['Tue 10:60-11:00', 'bad_time'],
    ['Tue 10.00-11.00', 'bad_time'],
    ['Tue 11:00-10:00', 'end_not_after_start'],
    ['Tue 10:00-10:00', 'end_not_after_start'],
  ])('%j: %s', (input, reason) => {
    expect(() => parseSlotPatterns(input)).toThrow(SlotPatternError);
    expect(() => parseSlotPatterns(input)).toThrow(expect.objectContaining({ reason, operation: 'parseSlotPatterns' }));
  });

  it('names the offending pattern among several, and says how to write one', () => {
    try {
      parseSlotPatterns(['Mon 09:00-09:30', 'Wed 14:00-13:00']);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ pattern: 'Wed 14:00-13:00', reason: 'end_not_after_start' });
      expect((error as Error).message).toMatch(/^Failed to parse slot pattern "Wed 14:00-13:00": .*Write patterns like "Tue,Thu 10:00-11:00"/);
    }
  });
});
