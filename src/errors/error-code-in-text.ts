const ERROR_CODE_PATTERN = /\b(?:CONSULTING|MEETING|ENROLLMENT|COUPON|GENERAL)-\d{3}\b/;

/**
 * Finds a documented error code (`MEETING-012`, `COUPON-003`, ...) wherever it stands in a text:
 * the spec does not fix the layout of messages, bulk row strings included.
 */
export function findErrorCode(text: string): string | undefined {
  return ERROR_CODE_PATTERN.exec(text)?.[0];
}
