/** Longest text kept of a non-string entry (an object echoed by a broken server). */
const MAX_ENTRY_LENGTH = 500;

/**
 * A payload's `errors` (documented as `[String!]`) as a list of strings, whatever a broken server
 * sent: a lone string is one message (not split into characters), non-string entries become their
 * JSON text, `null` and absent mean none.
 */
export function payloadMessages(errors: unknown): string[] {
  if (errors === null || errors === undefined) return [];
  const entries: unknown[] = Array.isArray(errors) ? errors : [errors];
  return entries.map(messageText);
}

function messageText(entry: unknown): string {
  return typeof entry === 'string' ? entry : jsonText(entry);
}

/**
 * A short text of any JSON value a broken server sent where text was expected. Never throws: a
 * value JSON cannot write (too deep for the stack, a cycle) is named, not written.
 */
export function jsonText(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return '[unreadable value]';
  }
  return (text ?? typeof value).slice(0, MAX_ENTRY_LENGTH);
}
