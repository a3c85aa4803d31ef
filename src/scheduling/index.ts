/**
 * `school-admin-sdk/scheduling`: local wall-clock times in the service's `effectiveTimezone` to Unix
 * seconds (DST-correct, via temporal-polyfill), and weekly recurrences to `bulkCreateMeetings` rows.
 * A separate entry point so that importing the client never loads time-zone code.
 *
 * @module school-admin-sdk/scheduling
 */
export { localTimeToUnix, unixToLocal } from './local-time.js';
export type { LocalDateTime, LocalTimeToUnixOptions, ZonedLocalTime } from './local-time.js';
export type { RepeatedTimeChoice } from './local-instant.js';
export { resolveTimeZone } from './time-zone.js';
export { WEEKDAYS, parseWeekday } from './weekday.js';
export type { Weekday } from './weekday.js';
export { planWeeklySlots, weeklySlots } from './weekly-slots.js';
export type {
  NonexistentSlotChoice,
  SkippedSlot,
  SlotRowTemplate,
  WeeklySlotPlan,
  WeeklySlotsCommonOptions,
  WeeklySlotsOptions,
} from './weekly-slots.js';
export type { WeeklyPattern } from './weekly-pattern.js';
export { parseSlotPatterns } from './slot-pattern-parser.js';
export { AmbiguousLocalTimeError } from './errors/ambiguous-local-time-error.js';
export type { AmbiguousLocalTimeDetails } from './errors/ambiguous-local-time-error.js';
export { NonexistentLocalTimeError } from './errors/nonexistent-local-time-error.js';
export type { NonexistentLocalTimeDetails } from './errors/nonexistent-local-time-error.js';
export { UnknownTimeZoneError } from './errors/unknown-time-zone-error.js';
export { InvalidTimeInputError } from './errors/invalid-time-input-error.js';
export type { InvalidTimeInputReason } from './errors/invalid-time-input-error.js';
export { SlotPatternError } from './errors/slot-pattern-error.js';
export type { SlotPatternErrorReason } from './errors/slot-pattern-error.js';
