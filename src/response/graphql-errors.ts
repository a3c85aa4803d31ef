import type { GraphQLErrorLocation } from '../errors/graphql-response-error.js';
import { jsonText } from './payload-messages.js';

/** One entry of a response's top-level `errors` array, as far as the client reads it. */
export interface GraphQLErrorEntry {
  message: string;
  /** Well-formed `{ line, column }` entries only (positive integers); `[]` otherwise. */
  locations: GraphQLErrorLocation[];
  path: string[];
  /** `extensions` as sent, or `{}`. */
  extensions: Record<string, unknown>;
}

/** The documented coded-error object under `extensions.error`. */
export interface CodedErrorEntry {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

/** Reads a response's `errors` into entries; tolerant of any shape (never throws). */
export function readGraphQLErrors(errors: unknown): GraphQLErrorEntry[] {
  if (!Array.isArray(errors)) return [];
  return errors.filter(isObject).map((entry) => ({
    message: typeof entry.message === 'string' ? entry.message : '',
    locations: Array.isArray(entry.locations) ? entry.locations.filter(isLocation).map(({ line, column }) => ({ line, column })) : [],
    // Documented as strings (GraphQL also allows list indexes); anything else is kept as short JSON text.
    path: Array.isArray(entry.path) ? entry.path.map(pathSegment) : [],
    extensions: isObject(entry.extensions) ? entry.extensions : {},
  }));
}

/** The `extensions.error {code, message, details}` of an entry, when it is a coded error. */
export function codedErrorOf(entry: GraphQLErrorEntry): CodedErrorEntry | undefined {
  const error = entry.extensions.error;
  if (!isObject(error) || typeof error.code !== 'string') return undefined;
  return {
    code: error.code,
    message: typeof error.message === 'string' ? error.message : entry.message,
    details: isObject(error.details) ? error.details : {},
  };
}

/** `extensions.code` of an entry (the rate-limit and conventional auth errors use it). */
export function extensionCodeOf(entry: GraphQLErrorEntry): string | undefined {
  const code = entry.extensions.code;
  return typeof code === 'string' ? code : undefined;
}

function isLocation(value: unknown): value is GraphQLErrorLocation {
  return isObject(value) && isPosition(value.line) && isPosition(value.column);
}

function isPosition(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function pathSegment(segment: unknown): string {
  return typeof segment === 'string' ? segment : typeof segment === 'number' ? String(segment) : jsonText(segment);
}

/** True for a plain JSON object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
