import { AdminApiError } from '../../errors/admin-api-error.js';

/** Why a slot pattern such as `"Tue,Thu 10:00-11:00"` was refused. */
export type SlotPatternErrorReason =
  /** Nothing but whitespace or separators. */
  | 'empty'
  /** Not `<days> <HH:MM>-<HH:MM>`. */
  | 'bad_syntax'
  /** A day name that is not a weekday (`Mon`..`Sun`, full names accepted). */
  | 'unknown_day'
  /** A day range such as `Fri-Mon` that runs backwards. */
  | 'day_range_reversed'
  /** A time that is not `HH:MM` on a 24-hour clock. */
  | 'bad_time'
  /** An end time not after the start time (slots cannot cross midnight). */
  | 'end_not_after_start';

/**
 * Thrown by `parseSlotPatterns` for a malformed pattern. `pattern` is the offending pattern text,
 * `reason` a stable name to branch on.
 */
export class SlotPatternError extends AdminApiError {
  override name = 'SlotPatternError';
  /** The pattern that was refused, trimmed. */
  readonly pattern: string;
  /** Stable reason name. */
  readonly reason: SlotPatternErrorReason;

  constructor(pattern: string, reason: SlotPatternErrorReason, detail: string) {
    super(
      `Failed to parse slot pattern ${JSON.stringify(pattern)}: ${detail}. ` +
        `Write patterns like "Tue,Thu 10:00-11:00" or "Mon-Fri 09:00-09:30", separated by ";".`,
      { operation: 'parseSlotPatterns' },
    );
    this.pattern = pattern;
    this.reason = reason;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { pattern: this.pattern, reason: this.reason };
  }
}
