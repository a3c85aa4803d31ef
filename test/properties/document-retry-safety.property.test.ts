import fc from 'fast-check';
import { Kind, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { retrySafetyOfDocument } from '../../src/retry/document-retry-safety.js';

/**
 * Differential tests of the retry-safety scan (graphql-js's Lexer, no parser) against graphql-js
 * `parse`: what the scan says about a document's operations must be what the parser sees.
 */

/** Words that are keywords somewhere in GraphQL, so the scan must not take them for one elsewhere. */
const KEYWORDS = ['query', 'mutation', 'subscription', 'fragment', 'on', 'true', 'false', 'null'] as const;
const plainName = fc.stringMatching(/^[_A-Za-z][_0-9A-Za-z]{0,5}$/);
const anyName = fc.oneof(fc.constantFrom(...KEYWORDS, 'coupon', '__typename'), plainName);
/** Fragment names cannot be `on`; enum values cannot be `true`, `false` or `null`. */
const fragmentName = anyName.filter((name) => name !== 'on');
const enumValue = anyName.filter((name) => !['true', 'false', 'null'].includes(name));

/** Text that tempts a scanner inside comments and strings: braces, brackets, keywords, `#`. */
const trap = fc.constantFrom('{', '}', '(', ')', '[', ']', ' mutation ', 'query', 'subscription { x }', 'fragment F on T', '#', '$x', '@d', ' ', 'a');
const trapText = fc.array(trap, { maxLength: 4 }).map((parts) => parts.join(''));

/** Ignored tokens: white space, line ends, commas, the byte-order mark, comments holding traps. */
const ignoredPiece = fc.oneof(
  fc.constantFrom(' ', '  ', '\n', '\r\n', '\t', ',', '\uFEFF'),
  trapText.map((text) => `# ${text}\n`),
);
const ignored = fc.array(ignoredPiece, { maxLength: 2 }).map((pieces) => pieces.join(''));
/** At least one separator (between two names). */
const gap = fc.tuple(fc.constantFrom(' ', '\n', ','), ignored).map(([first, rest]) => first + rest);

const stringValue = fc
  .array(fc.oneof(trap, fc.constantFrom('\\"', '\\\\', '\\u0041', '"""'.replaceAll('"', '\\"'))), { maxLength: 5 })
  .map((parts) => `"${parts.join('')}"`);
// A block string may hold braces, quotes and line breaks; `\"""` is its escaped delimiter. Each
// quote is followed by a space, so quotes never join the delimiters.
const blockStringValue = fc
  .array(fc.oneof(trap, fc.constantFrom('\n', '" ', '\\""" ', '"" ')), { maxLength: 5 })
  .map((parts) => `"""${parts.join('')}"""`);

function valueArbitrary(constant: boolean): fc.Arbitrary<string> {
  const leaf = fc.oneof(
    fc.integer().map(String),
    fc.constantFrom('1.5', '-0.25e3', 'true', 'false', 'null'),
    stringValue,
    blockStringValue,
    enumValue,
    ...(constant ? [] : [plainName.map((name) => `$${name}`)]),
  );
  const { value } = fc.letrec<{ value: string }>((tie) => ({
    value: fc.oneof(
      { maxDepth: 1, withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
      fc.array(fc.tuple(anyName, tie('value')), { maxLength: 3 }).map((fields) => `{${fields.map(([key, item]) => `${key}: ${item}`).join(' ')}}`),
    ),
  }));
  return value;
}
const value = valueArbitrary(false);
const constValue = valueArbitrary(true);

const argumentsOf = (item: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.array(fc.tuple(anyName, ignored, item), { minLength: 1, maxLength: 2 }).map((items) => `(${items.map(([name, space, v]) => `${name}:${space}${v}`).join(' ')})`);
const directivesOf = (item: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.array(fc.tuple(anyName, fc.option(argumentsOf(item), { nil: '' })), { maxLength: 1 }).map((items) => items.map(([name, a]) => ` @${name}${a}`).join(''));
const args = argumentsOf(value);
const directives = directivesOf(value);
/** Directives of a variable definition take constant arguments (no `$variable`). */
const constDirectives = directivesOf(constValue);

const { selectionSet } = fc.letrec<{ selectionSet: string; selection: string }>((tie) => ({
  selectionSet: fc
    .tuple(ignored, fc.array(tie('selection'), { minLength: 1, maxLength: 3 }), ignored)
    .map(([before, selections, after]) => `{${before}${selections.join(' ')}${after}}`),
  selection: fc.oneof(
    { maxDepth: 2, withCrossShrink: true },
    // field: alias, arguments, directives, sub-selection
    fc
      .tuple(fc.option(anyName, { nil: undefined }), anyName, fc.option(args, { nil: '' }), directives, fc.option(tie('selectionSet'), { nil: '' }))
      .map(([alias, name, a, d, sub]) => `${alias === undefined ? '' : `${alias}: `}${name}${a}${d} ${sub}`),
    fragmentName.map((name) => `...${name}`),
    fc.tuple(fc.option(anyName, { nil: undefined }), directives, tie('selectionSet')).map(([type, d, sub]) => `...${type === undefined ? '' : ` on ${type}`}${d} ${sub}`),
  ),
}));

const variableDefinitions = fc
  .array(fc.tuple(plainName, fc.constantFrom('Int', 'String!', '[ID!]', 'AdminCouponInput'), fc.option(constValue, { nil: undefined }), constDirectives), { minLength: 1, maxLength: 3 })
  .map((items) => `(${items.map(([name, type, fallback, d]) => `$${name}: ${type}${fallback === undefined ? '' : ` = ${fallback}`}${d}`).join(', ')})`);

const operation = fc
  .tuple(fc.constantFrom('query', 'mutation', 'subscription'), fc.option(anyName, { nil: '' }), fc.option(variableDefinitions, { nil: '' }), directives, gap, selectionSet)
  .map(([kind, name, variables, d, space, set]) => `${kind}${name === '' ? '' : ` ${name}`}${variables}${d}${space}${set}`);
const shorthandQuery = selectionSet;
const fragment = fc
  .tuple(fragmentName, anyName, directives, gap, selectionSet)
  .map(([name, type, d, space, set]) => `fragment ${name} on ${type}${d}${space}${set}`);

/** A document graphql-js parses: definitions in any order (fragments first included), separated by ignored tokens. */
const document = fc.oneof(
  fc.array(fc.oneof(operation, shorthandQuery, fragment), { minLength: 1, maxLength: 4 }),
  fc.tuple(fc.array(fragment, { minLength: 1, maxLength: 2 }), operation).map(([fragments, last]) => [...fragments, last]),
).chain((definitions) =>
  fc.tuple(ignored, fc.array(gap, { minLength: definitions.length, maxLength: definitions.length }), ignored).map(
    ([before, gaps, after]) => before + definitions.map((definition, index) => `${definition}${gaps[index]}`).join('') + after,
  ),
);

/** The operation kinds graphql-js `parse` finds, or 'error' when it does not parse. */
function parsedOperations(text: string): string[] | 'error' {
  try {
    return parse(text, { noLocation: true }).definitions.flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION ? [definition.operation] : []));
  } catch {
    return 'error';
  }
}

const singleQuery = (operations: string[] | 'error'): boolean => operations !== 'error' && operations.length === 1 && operations[0] === 'query';

/** The operations graphql-js `parse` finds, as `[kind, name]` (what `operationName` selects by). */
function parsedNamedOperations(text: string): [kind: string, name: string | undefined][] {
  return parse(text, { noLocation: true }).definitions.flatMap((definition) =>
    definition.kind === Kind.OPERATION_DEFINITION ? [[definition.operation, definition.name?.value] as [string, string | undefined]] : [],
  );
}

describe('request() retry safety: the lexer scan against graphql-js parse', () => {
  it('the generator makes documents graphql-js parses (else the comparison below proves little)', () => {
    fc.assert(
      fc.property(document, (text) => {
        expect(parsedOperations(text)).not.toBe('error');
      }),
      { numRuns: 300 },
    );
  });

  it('"only a document whose single operation is a query is safe": the scan says safe exactly when parse shows a single query', () => {
    fc.assert(
      fc.property(document, (text) => {
        const operations = parsedOperations(text);
        expect(retrySafetyOfDocument(text)).toBe(singleQuery(operations) ? 'idempotent' : 'unsafe');
      }),
      { numRuns: 2_000 },
    );
  });

  it('"with operationName, the operation of that name decides": safe exactly when parse shows one operation of that name and it is a query', () => {
    // A name of the document's own operations (or one it lacks) half the time, any name otherwise.
    const withName = document.chain((text) => {
      const operations = parsedNamedOperations(text);
      const own = operations.flatMap(([, name]) => (name === undefined ? [] : [name]));
      return fc.tuple(fc.constant(text), fc.constant(operations), fc.oneof(fc.constantFrom(...own, 'Absent'), anyName));
    });
    fc.assert(
      fc.property(withName, ([text, operations, name]) => {
        const named = operations.filter(([, found]) => found === name).map(([kind]) => kind);
        expect(retrySafetyOfDocument(text, name)).toBe(singleQuery(named) ? 'idempotent' : 'unsafe');
      }),
      { numRuns: 1_000 },
    );
  });

  it('a damaged document (a slice cut out, or a bracket, quote, `#` or keyword put in) is never safe where parse shows anything but a single query', () => {
    const damage = fc.oneof(
      fc.tuple(fc.constant('cut' as const), fc.nat(), fc.nat({ max: 12 })),
      fc.tuple(fc.constant('insert' as const), fc.nat(), fc.constantFrom('{', '}', '(', ')', '[', ']', '"', '"""', '#', ' mutation ', ' query ', ' fragment F on T ', '$', '@', '...', ':')),
    );
    fc.assert(
      fc.property(document, damage, (text, [how, at, what]) => {
        const position = at % (text.length + 1);
        const damaged = how === 'cut' ? text.slice(0, position) + text.slice(position + (what as number)) : text.slice(0, position) + String(what) + text.slice(position);
        const operations = parsedOperations(damaged);
        if (retrySafetyOfDocument(damaged) === 'idempotent') expect(operations === 'error' || singleQuery(operations)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    ['an operation named like a keyword', 'query mutation { a }', 'idempotent'],
    ['a directive named like a keyword', 'query @mutation { a }', 'idempotent'],
    ['a variable default object at depth 0 of the header', 'query Q($a: In = { b: [1, { c: 2 }] }) { a(x: $a) }', 'idempotent'],
    ['braces and a mutation inside a block string', 'query { a(t: """ } mutation { x } { """) }', 'idempotent'],
    ['a mutation after a fragment', 'fragment F on T { a } mutation { ...F }', 'unsafe'],
    ['a shorthand query and a mutation', '{ a } mutation { b }', 'unsafe'],
    ['a mismatched bracket', 'query { a(x: [1}) }', 'unsafe'],
    ['a description before the operation (not read: unsure)', '"""about""" query { a }', 'unsafe'],
    ['a type definition', 'type T { a: Int } query { a }', 'unsafe'],
    ['an empty document', ' # nothing\n', 'unsafe'],
    ['an unterminated string', 'query { a(t: "x) }', 'unsafe'],
  ])('%s: %s is %s', (_how, text, expected) => {
    expect(retrySafetyOfDocument(text)).toBe(expected);
  });

  it.each([
    ['the query of a query-and-mutation document', 'query Probe { a } mutation Create { b }', 'Probe', 'idempotent'],
    ['the mutation of the same document', 'query Probe { a } mutation Create { b }', 'Create', 'unsafe'],
    ['a name the document lacks', 'query Probe { a } mutation Create { b }', 'Other', 'unsafe'],
    ['a name two operations share', 'query Twice { a } query Twice { b }', 'Twice', 'unsafe'],
    ['an operation named like a keyword', 'mutation query { a } query mutation { b }', 'mutation', 'idempotent'],
    ['a directive is no name', 'query @Probe { a } mutation Probe { b }', 'Probe', 'unsafe'],
  ])('operationName selecting %s: %s with %s is %s', (_how, text, name, expected) => {
    expect(retrySafetyOfDocument(text, name)).toBe(expected);
  });
});
