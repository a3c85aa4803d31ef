import { SlotPatternError } from './errors/slot-pattern-error.js';
import { parseWeekday, WEEKDAYS, type Weekday } from './weekday.js';
import type { WeeklyPattern } from './weekly-pattern.js';

// `<days> <start>-<end>`: the lazy days part lets "Tue, Thu" contain a space.
const PATTERN_SHAPE = /^(?<days>.+?)\s+(?<start>[^\s-]+)\s*-\s*(?<end>[^\s-]+)$/;
const TIME_SHAPE = /^(?<hour>[01]?\d|2[0-3]):(?<minute>[0-5]\d)$/;

function readDay(name: string, pattern: string): Weekday {
  const day = parseWeekday(name);
  if (day === undefined) {
    throw new SlotPatternError(pattern, 'unknown_day', `${JSON.stringify(name)} is not a weekday (Mon..Sun)`);
  }
  return day;
}

function readDays(text: string, pattern: string): Weekday[] {
  const days = new Set<Weekday>();
  for (const item of text.split(',').map((part) => part.trim())) {
    const [first, last, ...extra] = item.split('-').map((part) => part.trim());
    if (first === undefined || first === '' || extra.length > 0 || last === '') {
      throw new SlotPatternError(pattern, 'bad_syntax', `${JSON.stringify(item)} is not a day or a day range`);
    }
    const from = WEEKDAYS.indexOf(readDay(first, pattern));
    const to = last === undefined ? from : WEEKDAYS.indexOf(readDay(last, pattern));
    if (to < from) {
      throw new SlotPatternError(pattern, 'day_range_reversed', `the day range ${JSON.stringify(item)} runs backwards (write Mon-Fri, not Fri-Mon)`);
    }
    for (const day of WEEKDAYS.slice(from, to + 1)) days.add(day);
  }
  return WEEKDAYS.filter((day) => days.has(day));
}

function readTime(text: string, pattern: string): string {
  const match = TIME_SHAPE.exec(text);
  if (match?.groups === undefined) {
    throw new SlotPatternError(pattern, 'bad_time', `${JSON.stringify(text)} is not a time HH:MM on a 24-hour clock`);
  }
  return `${match.groups['hour']?.padStart(2, '0')}:${match.groups['minute']}`;
}

function parseOne(pattern: string): WeeklyPattern {
  const match = PATTERN_SHAPE.exec(pattern);
  if (match?.groups === undefined) {
    throw new SlotPatternError(pattern, 'bad_syntax', 'expected days, a space and a time range');
  }
  const { days = '', start = '', end = '' } = match.groups;
  const parsed: WeeklyPattern = { days: readDays(days, pattern), start: readTime(start, pattern), end: readTime(end, pattern) };
  if (parsed.end <= parsed.start) {
    throw new SlotPatternError(pattern, 'end_not_after_start', 'the end time is not after the start time (slots cannot cross midnight)');
  }
  return parsed;
}

/**
 * Parses the CLI's slot patterns: `<days> <HH:MM>-<HH:MM>`, where days are comma-separated names
 * (`Mon`..`Sun` or full names, any case) or ranges (`Mon-Fri`). Several patterns may be given as an
 * array, or in one string separated by `;`. Times are normalised to `HH:MM`, days to week order.
 *
 * @throws {SlotPatternError} with a stable `reason` for a malformed pattern, or when there is none.
 * @example
 * ```ts
 * parseSlotPatterns(['Mon 09:00-09:30', 'Wed,Fri 14:00-15:00']);
 * // [{ days: ['mon'], start: '09:00', end: '09:30' }, { days: ['wed', 'fri'], start: '14:00', end: '15:00' }]
 * parseSlotPatterns('Tue,Thu 10:00-11:00; Sat 9:00-12:00');
 * ```
 */
export function parseSlotPatterns(input: string | readonly string[]): WeeklyPattern[] {
  const texts = typeof input === 'string' ? [input] : input;
  const patterns = texts
    .flatMap((text) => text.split(';'))
    .map((text) => text.trim())
    .filter((text) => text !== '')
    .map(parseOne);
  if (patterns.length === 0) {
    throw new SlotPatternError(texts.join('; ').trim(), 'empty', 'no pattern was given');
  }
  return patterns;
}
