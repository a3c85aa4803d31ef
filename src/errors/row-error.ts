import type { RowError } from '../client/types/types.js';
import { findErrorCode } from './error-code-in-text.js';
import { parseValidOptions } from './valid-options.js';

/**
 * Parses one error string of a bulk row into its code and `valid_options=` hint. Never throws.
 *
 * @example
 * ```ts
 * parseRowError('MEETING-011: host email not a licence valid_options=a@x.io,b@x.io');
 * //=> { message: '...', code: 'MEETING-011', validOptions: ['a@x.io', 'b@x.io'], validOptionsTruncated: false }
 * ```
 */
export function parseRowError(message: string): RowError {
  const code = findErrorCode(message);
  const hint = parseValidOptions(message);
  return {
    message,
    ...(code === undefined ? {} : { code }),
    ...(hint === undefined ? {} : { validOptions: hint.validOptions }),
    validOptionsTruncated: hint?.validOptionsTruncated ?? false,
  };
}
