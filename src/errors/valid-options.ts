/** The text the server appends when it cut a `valid_options=` list short (spec: "Other constraints"). */
const TRUNCATION_MARKER = '(truncated;';
const VALID_OPTIONS_PATTERN = /valid_options=([^\s(]*)/;

/** A `valid_options=` hint found in a server message. */
export interface ValidOptionsHint {
  /** The listed values (at most 20 as sent by the server). */
  validOptions: string[];
  /** True when the message says the list was truncated: it is a hint, not the full pool. */
  validOptionsTruncated: boolean;
}

/**
 * Finds the machine-parseable `valid_options=<a>,<b>` suffix in a server message, wherever it stands,
 * and whether the message says the list was truncated. Never throws.
 *
 * @example
 * ```ts
 * parseValidOptions('MEETING-012 host invalid valid_options=u1,u2');
 * //=> { validOptions: ['u1', 'u2'], validOptionsTruncated: false }
 * ```
 */
export function parseValidOptions(message: string): ValidOptionsHint | undefined {
  const match = VALID_OPTIONS_PATTERN.exec(message);
  if (match === null) return undefined;
  const list = match[1] ?? '';
  return {
    validOptions: list.split(',').filter((value) => value.length > 0),
    validOptionsTruncated: message.includes(TRUNCATION_MARKER, match.index),
  };
}
