/**
 * A row's error for a table cell: the code, then the message, without repeating a code the
 * message already starts with or contains.
 *
 * @example
 * ```ts
 * rowErrorText('MEETING-001', 'MEETING-001: meeting not found'); // 'MEETING-001: meeting not found'
 * rowErrorText('MEETING-012', 'host is not a TA');                 // 'MEETING-012 host is not a TA'
 * ```
 */
export function rowErrorText(code: string | undefined, message: string): string {
  return code === undefined || code === '' || message.includes(code) ? message : `${code} ${message}`;
}
