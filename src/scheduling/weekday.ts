/** The days of the week, Monday first (ISO 8601 order). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** A day of the week: `'mon'` .. `'sun'`. */
export type Weekday = (typeof WEEKDAYS)[number];

const FULL_NAMES: Readonly<Record<string, Weekday>> = {
  monday: 'mon',
  tuesday: 'tue',
  wednesday: 'wed',
  thursday: 'thu',
  friday: 'fri',
  saturday: 'sat',
  sunday: 'sun',
};

/**
 * Reads a day name, case-insensitively: three-letter (`'Tue'`) or full (`'Tuesday'`).
 * Returns `undefined` for anything else.
 *
 * @example
 * ```ts
 * parseWeekday('THU'); // 'thu'
 * parseWeekday('Thurs'); // undefined
 * ```
 */
export function parseWeekday(name: string): Weekday | undefined {
  const lower = name.trim().toLowerCase();
  return (WEEKDAYS as readonly string[]).includes(lower) ? (lower as Weekday) : FULL_NAMES[lower];
}

/** The weekday of an ISO day-of-week number (1 = Monday .. 7 = Sunday), as Temporal reports it. */
export function weekdayOfIsoNumber(dayOfWeek: number): Weekday {
  const day = WEEKDAYS[dayOfWeek - 1];
  if (day === undefined) throw new RangeError(`ISO day of week out of range: ${dayOfWeek}`);
  return day;
}
