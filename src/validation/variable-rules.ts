import { INPUT_OBJECT_FIELDS, INPUT_TYPE_KINDS, OPERATION_VARIABLES, type InputTypeKind } from '../generated/operation-inputs.js';
import { invalidInput, type LocalContext } from './local-errors.js';

/** How a method names its variables in messages when its parameters differ, e.g. `{ inputs: 'rows' }`. */
export type VariableNames = Readonly<Record<string, string>>;

/** A GraphQL type reference (`[AdminCouponInput!]!`), parsed. */
type TypeRef = { list: true; of: TypeRef } | { list: false; name: string };

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;
const DIGITS = /^-?\d+$/;

/**
 * Checks the variables of one documented operation against the schema's types (generated from
 * the schema into `src/generated/operation-inputs.ts`) before anything is paced or sent, down
 * through input objects and lists:
 * - `Int`: a whole number from -2^31 to 2^31 - 1; `Float`: a finite number; `BigInt`: a safe
 *   integer or a string of digits;
 * - a `Date` in an `Int` or `BigInt` field must be valid and is converted to whole Unix seconds,
 *   then checked as that number (an `Int` timestamp ends in January 2038);
 * - anywhere, NaN, ±Infinity and invalid Dates are refused: JSON would send them as `null`, which
 *   means something in this API (clears an expiry, makes a slot unlimited).
 *
 * Returns the variables with Dates converted (copied only where something changed), or throws an
 * `InvalidInputError` whose `field` is the path (`rows[3].maxAttendeeCapacity`), never the value.
 */
export function checkOperationVariables<T extends object>(context: LocalContext, operationField: string, variables: T, names: VariableNames = {}): T {
  const types: Readonly<Record<string, string>> | undefined = (OPERATION_VARIABLES as Readonly<Record<string, Readonly<Record<string, string>>>>)[operationField];
  return mapEntries(variables, (name, value) => {
    const path = names[name] ?? name;
    const type = types?.[name];
    return type === undefined ? checkUntyped(context, value, path) : checkTyped(context, value, typeRef(type), path);
  });
}

/**
 * Refuses NaN, ±Infinity and invalid Dates anywhere in the variables of a document without a known
 * schema (`request()`): JSON would silently send them as `null`. Other values go as JSON writes them.
 */
export function checkAnyVariables(context: LocalContext, variables: object): void {
  for (const [name, value] of Object.entries(variables)) checkUntyped(context, value, name);
}

function checkTyped(context: LocalContext, value: unknown, type: TypeRef, path: string): unknown {
  if (value === null || value === undefined) return value;
  if (type.list) {
    // GraphQL takes a single value where a list is expected as a list of one.
    if (!Array.isArray(value)) return checkTyped(context, value, type.of, path);
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const next = checkTyped(context, item, type.of, `${path}[${index}]`);
      if (next !== item) (copy ??= [...value])[index] = next;
    });
    return copy ?? value;
  }
  const kind: InputTypeKind | undefined = (INPUT_TYPE_KINDS as Readonly<Record<string, InputTypeKind>>)[type.name];
  switch (kind) {
    case 'int':
      return integer(context, value, path, 'Int');
    case 'bigint':
      return integer(context, value, path, 'BigInt');
    case 'float':
      if (typeof value !== 'number') throw fail(context, path, 'must be a number (GraphQL Float)');
      if (!Number.isFinite(value)) throw notFinite(context, path);
      return value;
    case 'input': {
      if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return checkUntyped(context, value, path);
      const fields = (INPUT_OBJECT_FIELDS as Readonly<Record<string, Readonly<Record<string, string>>>>)[type.name] ?? {};
      return mapEntries(value, (name, item) => {
        const field = fields[name];
        return field === undefined ? checkUntyped(context, item, `${path}.${name}`) : checkTyped(context, item, typeRef(field), `${path}.${name}`);
      });
    }
    default:
      return checkUntyped(context, value, path);
  }
}

/** An Int or BigInt: a number (whole, in range), a Date (converted to seconds) or, for BigInt, digits. */
function integer(context: LocalContext, value: unknown, path: string, scalar: 'Int' | 'BigInt'): unknown {
  if (scalar === 'BigInt' && typeof value === 'string' && DIGITS.test(value)) return value;
  let number: number;
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw invalidDate(context, path);
    number = Math.floor(ms / 1000);
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw notFinite(context, path);
    number = value;
  } else {
    throw fail(context, path, scalar === 'Int' ? 'must be a number or a Date (GraphQL Int)' : 'must be a number, a string of digits or a Date (GraphQL BigInt)');
  }
  if (!Number.isInteger(number)) throw fail(context, path, `must be a whole number (GraphQL ${scalar})`);
  if (scalar === 'Int' && (number < INT_MIN || number > INT_MAX)) {
    throw fail(context, path, `must be a 32-bit integer (GraphQL Int: -2^31 to 2^31 - 1${value instanceof Date ? ', which as a timestamp ends in January 2038' : ''})`);
  }
  if (!Number.isSafeInteger(number)) throw fail(context, path, 'must be at most 2^53 - 1 in size (send larger GraphQL BigInt values as a string of digits)');
  return number;
}

/** Walks any value iteratively (it may be deep or cyclic) for what JSON would turn into `null`. */
function checkUntyped(context: LocalContext, root: unknown, rootPath: string): unknown {
  // Most variables are strings or numbers: no walk to set up for them.
  if (root === null || typeof root !== 'object') {
    if (typeof root === 'number' && !Number.isFinite(root)) throw notFinite(context, rootPath);
    return root;
  }
  const stack: [unknown, string][] = [[root, rootPath]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value === 'number' && !Number.isFinite(value)) throw notFinite(context, path);
    if (value instanceof Date) {
      if (Number.isNaN(value.getTime())) throw invalidDate(context, path);
    } else if (value !== null && typeof value === 'object' && !seen.has(value)) {
      seen.add(value);
      if (Array.isArray(value)) value.forEach((item: unknown, index) => stack.push([item, `${path}[${index}]`]));
      else for (const [key, item] of Object.entries(value)) stack.push([item, `${path}.${key}`]);
    }
  }
  return root;
}

/** Copies `object` with `map` applied to each entry, only when something changed. */
function mapEntries<T extends object>(object: T, map: (name: string, value: unknown) => unknown): T {
  let copy: Record<string, unknown> | undefined;
  for (const name of Object.keys(object)) {
    const value = (object as Record<string, unknown>)[name];
    const next = map(name, value);
    if (next !== value) {
      copy ??= { ...(object as Record<string, unknown>) };
      Object.defineProperty(copy, name, { value: next, enumerable: true, writable: true, configurable: true });
    }
  }
  return (copy ?? object) as T;
}

const parsedTypes = new Map<string, TypeRef>();

/** Parses `[Name!]!` notation once per distinct text (non-null marks do not change what is checked). */
function typeRef(text: string): TypeRef {
  let ref = parsedTypes.get(text);
  if (ref === undefined) {
    const bare = text.endsWith('!') ? text.slice(0, -1) : text;
    ref = bare.startsWith('[') ? { list: true, of: typeRef(bare.slice(1, -1)) } : { list: false, name: bare };
    parsedTypes.set(text, ref);
  }
  return ref;
}

function fail(context: LocalContext, path: string, problem: string) {
  return invalidInput(context, path, `${path} ${problem}`);
}

function notFinite(context: LocalContext, path: string) {
  return fail(context, path, 'is not a finite number (JSON would send it as null)');
}

function invalidDate(context: LocalContext, path: string) {
  return fail(context, path, 'is an invalid Date (it would be sent as null)');
}
