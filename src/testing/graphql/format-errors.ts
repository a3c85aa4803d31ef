import type { ExecutionResult, GraphQLError } from 'graphql';
import { CodedFailure } from './coded-error.js';

/** A JSON GraphQL response body. */
export interface GraphQLResponseBody {
  data?: unknown;
  errors?: unknown[];
}

/** The message of GENERAL-001 (no internal detail leaks out). */
export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

/** The spec's coded-error entry of the top-level `errors` array. */
function codedEntry(error: GraphQLError, code: string, message: string, details: Record<string, unknown>) {
  return { message, path: error.path ?? [], extensions: { error: { code, message, details } } };
}

/**
 * Shapes an execution result as the admin API answers: coded failures become
 * `{ message, path, extensions: { error: { code, message, details } } }` with `data: null`, any
 * other failure inside a resolver becomes GENERAL-001, and GraphQL's own errors (syntax,
 * validation, variables) keep the standard shape. `onCoded` sees each code returned.
 */
export function formatExecutionResult(result: ExecutionResult, onCoded: (code: string) => void): GraphQLResponseBody {
  if (!result.errors || result.errors.length === 0) return { data: result.data ?? null };
  let coded = false;
  const errors = result.errors.map((error) => {
    const original = error.originalError;
    if (original instanceof CodedFailure) {
      coded = true;
      onCoded(original.code);
      return codedEntry(error, original.code, original.message, original.details);
    }
    if (original && error.path) {
      coded = true;
      onCoded('GENERAL-001');
      return codedEntry(error, 'GENERAL-001', INTERNAL_ERROR_MESSAGE, {});
    }
    return error.toJSON();
  });
  if (coded) return { data: null, errors };
  // Errors raised before execution (syntax, validation, variables) come without `data`.
  return result.data === undefined ? { errors } : { data: result.data, errors };
}
