import fc from 'fast-check';
import { Kind, parse, print, versionInfo, type DocumentNode } from 'graphql';
import { isPrintableAsBlockString } from 'graphql/language/blockString.js';
import { describe, expect, it } from 'vitest';
import { printExecutableDocument } from '../../src/client/print-document.js';

/**
 * Differential tests of the SDK's printer of executable documents against graphql-js's own
 * `print` and `parse`: random operation and fragment ASTs, built as graphql-js builds them, must
 * parse back from the SDK's text to exactly what they parse back to from graphql's text.
 */

/** graphql 16 parses fragment variables (`fragment F($a: Int) on T`) only when asked. */
/** Fragment variables: graphql 16 reads them with `allowLegacyFragmentVariables`, 17 with `experimentalFragmentArguments`. */
const PARSE_OPTIONS = { noLocation: true, allowLegacyFragmentVariables: true, experimentalFragmentArguments: true };

type Node = Record<string, unknown>;

/** Words that are keywords somewhere in GraphQL: a name may still be one. */
const KEYWORDS = ['query', 'mutation', 'subscription', 'fragment', 'on', 'true', 'false', 'null', 'type', 'schema'] as const;
const nameText = fc.oneof(fc.constantFrom(...KEYWORDS, '__typename'), fc.stringMatching(/^[_A-Za-z][_0-9A-Za-z]{0,7}$/));
const nameNode = (text: fc.Arbitrary<string> = nameText): fc.Arbitrary<Node> => text.map((value) => ({ kind: Kind.NAME, value }));
const name = nameNode();
/** Fragment names cannot be `on`; enum values cannot be `true`, `false` or `null`. */
const fragmentName = nameNode(nameText.filter((text) => text !== 'on'));
const enumText = nameText.filter((text) => !['true', 'false', 'null'].includes(text));

/**
 * A list field as graphql's parser leaves it (always present) or as a hand-built AST may (absent
 * when empty): the printers must read both alike.
 */
function listField<T>(items: fc.Arbitrary<T>, maxLength: number): fc.Arbitrary<T[] | undefined> {
  return fc.tuple(fc.array(items, { maxLength }), fc.boolean()).map(([list, omitEmpty]) => (list.length === 0 && omitEmpty ? undefined : list));
}

/** An empty list field, as parsed or as hand-built. */
const noList = fc.constantFrom<Node[] | undefined>([], undefined);

/**
 * Characters that test an escaper: C0 and C1 controls, DEL, quotes, backslashes, U+2028/2029,
 * the byte-order mark, a `"""` run, and any code point (astral ones as surrogate pairs). Lone
 * surrogates are left out: no GraphQL string can hold one (see the last property).
 */
const stringUnit = fc.oneof(
  fc.integer({ min: 0, max: 0x9f }).map((code) => String.fromCharCode(code)),
  fc.constantFrom('"', '\\', '"""', '\u2028', '\u2029', '\uFEFF', '\n', '\r\n', '\t', ' ', '😀', '\u{10FFFF}', '\uD83D\uDE00'),
  fc.string({ unit: 'binary', maxLength: 1 }),
);
const stringText = fc.array(stringUnit, { maxLength: 16 }).map((units) => units.join(''));

/** A string value; a block string only where graphql's printer can give it back as one. */
const stringValue = fc
  .tuple(stringText, fc.boolean())
  .map(([value, block]): Node => ({ kind: Kind.STRING, value, block: block && isPrintableAsBlockString(value) }));

const intText = fc.oneof(fc.integer().map(String), fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String));
const floatText = fc
  .tuple(intText, fc.option(fc.stringMatching(/^\d{1,4}$/), { nil: undefined }), fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.stringMatching(/^\d{1,3}$/)), { nil: undefined }))
  .filter(([, fraction, exponent]) => fraction !== undefined || exponent !== undefined)
  .map(([whole, fraction, exponent]) => `${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : exponent.join('')}`);

function valueArbitrary(constant: boolean): fc.Arbitrary<Node> {
  const leaf = fc.oneof(
    intText.map((value): Node => ({ kind: Kind.INT, value })),
    floatText.map((value): Node => ({ kind: Kind.FLOAT, value })),
    stringValue,
    fc.boolean().map((value): Node => ({ kind: Kind.BOOLEAN, value })),
    fc.constant<Node>({ kind: Kind.NULL }),
    enumText.map((value): Node => ({ kind: Kind.ENUM, value })),
    ...(constant ? [] : [name.map((variable): Node => ({ kind: Kind.VARIABLE, name: variable }))]),
  );
  const { value } = fc.letrec<{ value: Node }>((tie) => ({
    value: fc.oneof(
      { maxDepth: 2, withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 3 }).map((values): Node => ({ kind: Kind.LIST, values })),
      fc
        .array(fc.tuple(name, tie('value')), { maxLength: 3 })
        .map((fields): Node => ({ kind: Kind.OBJECT, fields: fields.map(([field, item]) => ({ kind: Kind.OBJECT_FIELD, name: field, value: item })) })),
    ),
  }));
  return value;
}
const value = valueArbitrary(false);
const constValue = valueArbitrary(true);

const argumentsOf = (item: fc.Arbitrary<Node>, maxLength: number): fc.Arbitrary<Node[] | undefined> =>
  listField(fc.tuple(name, item).map(([argument, v]): Node => ({ kind: Kind.ARGUMENT, name: argument, value: v })), maxLength);
const directivesOf = (item: fc.Arbitrary<Node>): fc.Arbitrary<Node[] | undefined> =>
  listField(fc.tuple(name, argumentsOf(item, 2)).map(([directive, args]): Node => ({ kind: Kind.DIRECTIVE, name: directive, arguments: args })), 2);
const directives = directivesOf(value);
const constDirectives = directivesOf(constValue);

const namedType = name.map((type): Node => ({ kind: Kind.NAMED_TYPE, name: type }));
const { type } = fc.letrec<{ type: Node; nullableType: Node }>((tie) => ({
  nullableType: fc.oneof({ maxDepth: 2 }, namedType, tie('type').map((of): Node => ({ kind: Kind.LIST_TYPE, type: of }))),
  type: fc.oneof(tie('nullableType'), tie('nullableType').map((of): Node => ({ kind: Kind.NON_NULL_TYPE, type: of }))),
}));

/**
 * Whether the installed graphql reads descriptions on executable definitions (16.15 and later):
 * the oracle cannot judge them otherwise. CI runs this file with graphql 16.9 (the oldest the
 * range accepts) and with 17; document-text.test.ts checks the SDK's descriptions on any version.
 */
const EXECUTABLE_DESCRIPTIONS = (() => {
  try {
    parse('"d" query { a }');
    return true;
  } catch {
    return false;
  }
})();

/** Half the time: a description is rare in real documents, and its absence changes the layout. */
const description = EXECUTABLE_DESCRIPTIONS ? fc.option(stringValue, { nil: undefined, freq: 2 }) : fc.constant(undefined);
const variableDefinition = fc
  .record({ description, variable: name, type, defaultValue: fc.option(constValue, { nil: undefined }), directives: constDirectives })
  .map(({ variable, ...rest }): Node => ({ kind: Kind.VARIABLE_DEFINITION, variable: { kind: Kind.VARIABLE, name: variable }, ...rest }));

const { selectionSet } = fc.letrec<{ selectionSet: Node; selection: Node }>((tie) => ({
  selectionSet: fc.array(tie('selection'), { minLength: 1, maxLength: 3 }).map((selections): Node => ({ kind: Kind.SELECTION_SET, selections })),
  selection: fc.oneof(
    { maxDepth: 2, withCrossShrink: true },
    fc
      .record({ alias: fc.option(name, { nil: undefined }), name, arguments: argumentsOf(value, 4), directives, selectionSet: fc.option(tie('selectionSet'), { nil: undefined }) })
      .map((field): Node => ({ kind: Kind.FIELD, ...field })),
    fc.record({ name: fragmentName, directives }).map((spread): Node => ({ kind: Kind.FRAGMENT_SPREAD, ...spread })),
    fc
      .record({ typeCondition: fc.option(namedType, { nil: undefined }), directives, selectionSet: tie('selectionSet') })
      .map((fragment): Node => ({ kind: Kind.INLINE_FRAGMENT, ...fragment })),
  ),
}));

const operation = fc
  .record({
    operation: fc.constantFrom('query', 'mutation', 'subscription'),
    description,
    name: fc.option(name, { nil: undefined, freq: 2 }),
    variableDefinitions: listField(variableDefinition, 3),
    directives,
    selectionSet,
  })
  .map((definition): Node => ({ kind: Kind.OPERATION_DEFINITION, ...definition }));

/** `{ ... }`: an anonymous query with nothing but its selection set, which graphql prints bare. */
const shorthand = fc
  .record({ variableDefinitions: noList, directives: noList, selectionSet })
  .map((definition): Node => ({ kind: Kind.OPERATION_DEFINITION, operation: 'query', ...definition }));

const fragment = fc
  .record({ description, name: fragmentName, variableDefinitions: listField(variableDefinition, 2), typeCondition: namedType, directives, selectionSet })
  .map((definition): Node => ({ kind: Kind.FRAGMENT_DEFINITION, ...definition }));

const document = fc
  .tuple(fc.array(fc.oneof(operation, shorthand), { minLength: 1, maxLength: 3 }), fc.array(fragment, { maxLength: 2 }))
  .chain(([operations, fragments]) => fc.shuffledSubarray([...operations, ...fragments], { minLength: operations.length + fragments.length }))
  .map((definitions) => ({ kind: Kind.DOCUMENT, definitions }) as unknown as DocumentNode);

/**
 * An AST compared for meaning: no `loc`, no absent or empty lists, no `undefined` fields, and no
 * `block` flag (the SDK prints a block string as an ordinary string of the same value).
 */
function meaning(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(meaning);
  if (typeof node !== 'object' || node === null) return node;
  const kept = Object.entries(node).filter(
    ([key, field]) => key !== 'loc' && key !== 'block' && field !== undefined && !(Array.isArray(field) && field.length === 0),
  );
  return Object.fromEntries(kept.map(([key, field]) => [key, meaning(field)]));
}

/** The same AST with every block string an ordinary one. */
function withoutBlockStrings<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withoutBlockStrings) as T;
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(Object.entries(node).map(([key, field]) => [key, key === 'block' ? false : withoutBlockStrings(field)])) as T;
}

const RUNS = { numRuns: 200 };

describe('printExecutableDocument: the text of a DocumentNode without its source, checked against graphql-js', () => {
  it("the generated documents are what graphql's own print and parse give back (so the comparison below means something)", () => {
    fc.assert(
      fc.property(document, (ast) => {
        expect(meaning(parse(print(ast), PARSE_OPTIONS))).toEqual(meaning(ast));
      }),
      RUNS,
    );
  });

  it("parse(SDK's text) is parse(graphql's print): the same operations, fields, arguments, values and strings", () => {
    fc.assert(
      fc.property(document, (ast) => {
        expect(meaning(parse(printExecutableDocument(ast), PARSE_OPTIONS))).toEqual(meaning(parse(print(ast), PARSE_OPTIONS)));
      }),
      RUNS,
    );
  });

  // The SDK keeps graphql 16's layout (the text sent does not change with the app's graphql);
  // graphql 17 prints objects as `{ a: 1 }`, so this comparison runs where graphql 16 is installed.
  it.runIf(versionInfo.major === 16)("without block strings the SDK's text is graphql 16's print, character for character (layout, shorthand, 80-column argument wrapping)", () => {
    fc.assert(
      fc.property(
        document.map(withoutBlockStrings),
        (ast) => {
          expect(printExecutableDocument(ast)).toBe(print(ast));
        },
      ),
      RUNS,
    );
  });

  it('a string with a lone surrogate, which no GraphQL string can hold, gives text graphql refuses from both printers', () => {
    const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
    fc.assert(
      fc.property(stringText, loneSurrogate, stringText, (before, lone, after) => {
        // A pair formed across the joins is a valid character: only a lone one is the case here.
        fc.pre(!/[\uD800-\uDBFF][\uDC00-\uDFFF]/.test(`${before.slice(-1)}${lone}${after.slice(0, 1)}`));
        const argument = { kind: Kind.ARGUMENT, name: { kind: Kind.NAME, value: 's' }, value: { kind: Kind.STRING, value: before + lone + after } };
        const field = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: 'f' }, arguments: [argument] };
        const ast = { kind: Kind.DOCUMENT, definitions: [{ kind: Kind.OPERATION_DEFINITION, operation: 'query', selectionSet: { kind: Kind.SELECTION_SET, selections: [field] } }] } as unknown as DocumentNode;
        expect(() => parse(printExecutableDocument(ast))).toThrow();
        expect(() => parse(print(ast))).toThrow();
      }),
      { numRuns: 100 },
    );
  });
});
