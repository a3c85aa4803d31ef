import fc from 'fast-check';
import { Kind, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { retrySafetyOfDocument } from '../../src/retry/document-retry-safety.js';

/**
 * Differential tests of request()'s retry-safety rule (the text holds neither the name `mutation`
 * nor `subscription`) against graphql-js `parse`: whatever the rule calls safe must hold queries
 * only, as the parser sees it, and a query-only document that never names either is safe.
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

/** Nothing the server could run changes data: it does not parse (refused before it runs), or every operation is a query. */
const changesNothing = (operations: string[] | 'error'): boolean => operations === 'error' || operations.every((kind) => kind === 'query');

/** Every `mutation` and `subscription` name, to be made `query` (still a document graphql-js parses). */
const NAMES_OF_CHANGE = /\b(?:mutation|subscription)\b/g;

describe('request() retry safety: the name rule against graphql-js parse', () => {
  it('the generator makes documents graphql-js parses, many of them holding a mutation or subscription (else the comparison below proves little)', () => {
    let changing = 0;
    fc.assert(
      fc.property(document, (text) => {
        const operations = parsedOperations(text);
        expect(operations).not.toBe('error');
        if (!changesNothing(operations)) changing += 1;
      }),
      { numRuns: 300 },
    );
    expect(changing).toBeGreaterThan(60);
  });

  it('"never takes a mutation for a query": whatever the rule calls safe, parse shows queries only, however the mutation is written (after comments, fragments, a byte-order mark, or not the first operation)', () => {
    fc.assert(
      fc.property(document, (text) => {
        const operations = parsedOperations(text);
        if (retrySafetyOfDocument(text) === 'idempotent') expect(changesNothing(operations)).toBe(true);
        if (!changesNothing(operations)) expect(retrySafetyOfDocument(text)).toBe('unsafe');
      }),
      { numRuns: 3_000 },
    );
    // 3,000 parses, CPU-bound: a few seconds alone, over 20 s while the rest of the suite shares 2 cores (CI failed on it).
  }, 90_000);

  it('a damaged document (a slice cut out, or a bracket, quote, `#` or keyword put in) is never called safe where parse shows a mutation or subscription', () => {
    const damage = fc.oneof(
      fc.tuple(fc.constant('cut' as const), fc.nat(), fc.nat({ max: 12 })),
      fc.tuple(fc.constant('insert' as const), fc.nat(), fc.constantFrom('{', '}', '(', ')', '[', ']', '"', '"""', '#', ' mutation ', ' query ', ' fragment F on T ', '$', '@', '...', ':')),
    );
    fc.assert(
      fc.property(document, damage, (text, [how, at, what]) => {
        const position = at % (text.length + 1);
        const damaged = how === 'cut' ? text.slice(0, position) + text.slice(position + (what as number)) : text.slice(0, position) + String(what) + text.slice(position);
        if (retrySafetyOfDocument(damaged) === 'idempotent') expect(changesNothing(parsedOperations(damaged))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('"a text that names neither is safe": every query-only document without the names `mutation` and `subscription` is safe to repeat', () => {
    const queriesOnly = document.map((text) => text.replace(NAMES_OF_CHANGE, 'query'));
    fc.assert(
      fc.property(queriesOnly, (text) => {
        const operations = parsedOperations(text);
        expect(operations).not.toBe('error');
        expect(changesNothing(operations)).toBe(true);
        expect(retrySafetyOfDocument(text)).toBe('idempotent');
      }),
      { numRuns: 1_000 },
    );
  });

  it.each([
    ['a query written as a template literal', '\n  query Q {\n    __typename\n  }\n', 'idempotent'],
    ['an anonymous query after a comment', '# who am I\n{ __typename }', 'idempotent'],
    ['a variable default object', 'query Q($a: In = { b: [1, { c: 2 }] }) { a(x: $a) }', 'idempotent'],
    ['fields whose names only contain the words', '{ updateSubscriptions mutationCount subscription_id }', 'idempotent'],
    ['a mutation after a fragment', 'fragment F on T { a } mutation { ...F }', 'unsafe'],
    ['a shorthand query and a mutation', '{ a } mutation { b }', 'unsafe'],
    ['a mutation after a byte-order mark', '\uFEFFmutation { a }', 'unsafe'],
    ['a mutation after a comma', ',mutation { a }', 'unsafe'],
    ['a subscription', 'subscription { couponCreated { id } }', 'unsafe'],
    ['a query selecting a field named `subscription` (unsure: unsafe)', '{ payload { subscription { id } } }', 'unsafe'],
    ['a query with the word in a comment (unsure: unsafe)', '# not a mutation\n{ a }', 'unsafe'],
    ['a query with the word in a string (unsure: unsafe)', '{ a(t: "mutation") }', 'unsafe'],
    ['a query operation named `mutation` (unsure: unsafe)', 'query mutation { a }', 'unsafe'],
  ])('%s: %s is %s', (_how, text, expected) => {
    expect(retrySafetyOfDocument(text)).toBe(expected);
  });
});
