/** At most this many values follow `valid_options=` (spec, "Other constraints"). */
export const VALID_OPTIONS_LIMIT = 20;

/**
 * The spec's text ending a message whose `valid_options=` list was cut short. Kept verbatim: the
 * spec does not name the video-platform host listing query, so neither does the simulator.
 */
export const VALID_OPTIONS_TRUNCATION_TEXT =
  '(truncated; call meetingHosts / <video-platform host query> for the full list)';

/**
 * Appends the machine-parseable suffix `valid_options=<a>,<b>` to a message, listing at most
 * {@link VALID_OPTIONS_LIMIT} values and ending with {@link VALID_OPTIONS_TRUNCATION_TEXT} when
 * the pool is larger.
 *
 * @example
 * ```ts
 * withValidOptions('MEETING-012: hostUserId must be ...', ['u1', 'u2']);
 * //=> 'MEETING-012: hostUserId must be ... valid_options=u1,u2'
 * ```
 */
export function withValidOptions(message: string, pool: readonly string[]): string {
  const shown = pool.slice(0, VALID_OPTIONS_LIMIT).join(',');
  const text = `${message} valid_options=${shown}`;
  return pool.length > VALID_OPTIONS_LIMIT ? `${text} ${VALID_OPTIONS_TRUNCATION_TEXT}` : text;
}
