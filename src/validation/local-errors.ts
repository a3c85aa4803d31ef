import { CodedError } from '../errors/coded-error.js';
import { describeErrorCode, type ErrorCode } from '../errors/error-codes.js';
import { InvalidInputError } from '../errors/invalid-input-error.js';

/** Names the call in messages of local errors. */
export interface LocalContext {
  operation: string;
  label: string;
}

/**
 * A {@link CodedError} for an input the server would refuse with `code`; raised before sending.
 * `details` says where (e.g. `{ row: 3 }`), never what the value was.
 */
/** The context of a local check of `operation`, labelled as its operations-table row is. */
export function localContext(operation: string, op: { label: string }): LocalContext {
  return { operation, label: op.label };
}

export function localCodedError(context: LocalContext, code: ErrorCode, details: Record<string, unknown> = {}): CodedError {
  const { meaning, remedy } = describeErrorCode(code) ?? { meaning: code, remedy: '' };
  const where = typeof details.row === 'number' ? ` in row ${details.row}` : '';
  return new CodedError(`Failed to ${context.label}: ${meaning}${where} (${code}). ${remedy} Nothing was sent.`, {
    operation: context.operation,
    code,
    details,
    local: true,
  });
}

/** An {@link InvalidInputError} for an input the server would refuse without a code. */
export function invalidInput(context: LocalContext, field: string, problem: string): InvalidInputError {
  return new InvalidInputError(`Failed to ${context.label}: ${problem}. Nothing was sent.`, { operation: context.operation, field });
}

/** Refuses a missing or non-string identifier (JavaScript callers have no compiler to stop them). */
export function requireId(context: LocalContext, field: string, value: unknown): void {
  if (typeof value !== 'string' || value.length === 0) {
    throw invalidInput(context, field, `${field} must be a non-empty string`);
  }
}
