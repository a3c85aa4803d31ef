import type { InvalidInputError } from '../errors/invalid-input-error.js';
import { invalidInput, type LocalContext } from '../validation/local-errors.js';
import type { DocumentNodeLike } from './types.js';

/**
 * A graphql-js AST node as this printer reads it: structural, so graphql 16 and 17 nodes (and
 * hand-built or JSON-revived ones) all fit, and every field is checked before it is printed.
 */
type AstNode = Readonly<Record<string, unknown>>;

/** Errors name the call as `request()`'s other local errors do. */
export const REQUEST_CONTEXT: LocalContext = { operation: 'request', label: 'run the request' };

/** graphql-js's line limit: a field's arguments longer than this go one per line. */
const MAX_LINE_LENGTH = 80;

const NAME = /^[_A-Za-z]\w*$/;
const INT = /^-?(?:0|[1-9]\d*)$/;
const FLOAT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const OPERATIONS = new Set<unknown>(['query', 'mutation', 'subscription']);
const ESCAPES: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

/**
 * Prints an executable GraphQL document (operations and fragments) to the text graphql-js's
 * `print` gives, without graphql's printer: `request()` needs it only for a `DocumentNode` that
 * carries no source text, and graphql's printer is 8 kB of a worker bundle. The output is graphql
 * 16's `print` output except for block strings, which are printed as ordinary quoted strings of
 * the same value; graphql 17's fragment arguments and empty selection sets (`{}`) are printed as
 * graphql 17 prints them (whose layout of long lists and objects differs, not their meaning).
 *
 * Names, numbers and enum values are checked against GraphQL's lexical rules, so a hand-built
 * AST cannot change the document's meaning through them.
 *
 * @throws {InvalidInputError} (operation `request`, field `document`) for a node that is not
 * part of an executable document (a type-system definition, an unknown kind), a node where it
 * cannot be, or a node missing a part it needs.
 */
export function printExecutableDocument(document: DocumentNodeLike): string {
  return document.definitions
    .map((node) => {
      if (isNode(node, 'OperationDefinition')) return operationDefinition(node);
      if (isNode(node, 'FragmentDefinition')) return fragmentDefinition(node);
      throw refusal(`the document holds ${describe(node)}, which is not part of an executable document`);
    })
    .join('\n\n');
}

function operationDefinition(node: AstNode): string {
  if (!OPERATIONS.has(node.operation)) throw invalid(node, 'operation');
  const variables = nodes(node, 'variableDefinitions', 'VariableDefinition').map(variableDefinition);
  // A variable with a description spans lines: graphql then puts each on its own line.
  const list = variables.some((text) => text.includes('\n')) ? `(\n${variables.join('\n')}\n)` : wrap('(', variables.join(', '), ')');
  const prefix = description(node) + spaced([node.operation as string, (absent(node.name) ? '' : name(node)) + list, directives(node)]);
  // graphql prints an anonymous query with nothing but a selection set in its shorthand form.
  return (prefix === 'query' ? '' : `${prefix} `) + selectionSet(node, '');
}

function fragmentDefinition(node: AstNode): string {
  // graphql 16's experimental fragment variables and graphql 17's fragment arguments both live here.
  const variables = nodes(node, 'variableDefinitions', 'VariableDefinition').map(variableDefinition);
  const condition = name(one(node, 'typeCondition', 'NamedType'));
  return `${description(node)}fragment ${name(node)}${wrap('(', variables.join(', '), ')')} on ${condition} ${wrap('', directives(node), ' ')}${selectionSet(node, '')}`;
}

function variableDefinition(node: AstNode): string {
  const defaultValue = absent(node.defaultValue) ? '' : ` = ${value(node.defaultValue, node, 'defaultValue')}`;
  return `${description(node)}$${name(one(node, 'variable', 'Variable'))}: ${type(node.type, node)}${defaultValue}${wrap(' ', directives(node))}`;
}

function selectionSet(owner: AstNode, indent: string): string {
  const set = one(owner, 'selectionSet', 'SelectionSet');
  const inner = `${indent}  `;
  const lines = list(set, 'selections').map((node) => inner + selection(node, set, inner));
  // graphql 17 keeps an empty selection set (its parser accepts `{}`); graphql 16 has none.
  return lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n${indent}}`;
}

function selection(node: unknown, set: AstNode, indent: string): string {
  if (isNode(node, 'Field')) {
    const alias = absent(node.alias) ? '' : `${nameOf(node.alias, node, 'alias')}: `;
    return spaced([withArguments(alias + name(node), node, indent), directives(node), absent(node.selectionSet) ? '' : selectionSet(node, indent)]);
  }
  // graphql 17 gives a fragment spread arguments (`...F(size: 4)`).
  if (isNode(node, 'FragmentSpread')) return spaced([withArguments(`...${name(node)}`, node, indent), directives(node)]);
  if (isNode(node, 'InlineFragment')) {
    const condition = absent(node.typeCondition) ? '' : `on ${name(one(node, 'typeCondition', 'NamedType'))}`;
    return spaced(['...', condition, directives(node), selectionSet(node, indent)]);
  }
  throw invalid(set, 'selections');
}

/** `prefix(arguments)`, one argument per line when the line would pass 80 characters (as graphql does). */
function withArguments(prefix: string, node: AstNode, indent: string): string {
  const args = list(node, 'arguments').map((arg) => argument(arg, node));
  const joined = args.join(', ');
  if (joined === '') return prefix;
  return prefix.length + joined.length + 2 > MAX_LINE_LENGTH ? `${prefix}(\n${args.map((arg) => `${indent}  ${arg}`).join('\n')}\n${indent})` : `${prefix}(${joined})`;
}

function argument(node: unknown, owner: AstNode): string {
  // graphql 17 calls a fragment spread's arguments `FragmentArgument`; they print the same.
  if (!isNode(node, 'Argument') && !isNode(node, 'FragmentArgument')) throw invalid(owner, 'arguments');
  return `${name(node)}: ${value(node.value, node, 'value')}`;
}

function directives(node: AstNode): string {
  return nodes(node, 'directives', 'Directive')
    .map((directive) => `@${name(directive)}${wrap('(', list(directive, 'arguments').map((arg) => argument(arg, directive)).join(', '), ')')}`)
    .join(' ');
}

function value(node: unknown, owner: AstNode, part: string): string {
  if (!isAstNode(node)) throw invalid(owner, part);
  switch (node.kind) {
    case 'Variable':
      return `$${name(node)}`;
    case 'IntValue':
      return token(node, INT);
    case 'FloatValue':
      return token(node, FLOAT);
    case 'StringValue':
      // A block string's value printed as an ordinary string parses back to the same value.
      return quote(node);
    case 'BooleanValue':
      return node.value === true ? 'true' : 'false';
    case 'NullValue':
      return 'null';
    case 'EnumValue': {
      const text = token(node, NAME);
      if (text === 'true' || text === 'false' || text === 'null') throw invalid(node, 'value');
      return text;
    }
    case 'ListValue':
      return `[${list(node, 'values')
        .map((item) => value(item, node, 'values'))
        .join(', ')}]`;
    case 'ObjectValue':
      return `{${nodes(node, 'fields', 'ObjectField')
        .map((field) => `${name(field)}: ${value(field.value, field, 'value')}`)
        .join(', ')}}`;
    default:
      throw invalid(owner, part);
  }
}

function type(node: unknown, owner: AstNode): string {
  if (isNode(node, 'NamedType')) return name(node);
  if (isNode(node, 'ListType')) return `[${type(node.type, node)}]`;
  if (isNode(node, 'NonNullType')) return `${type(node.type, node)}!`;
  throw invalid(owner, 'type');
}

/** A GraphQL string literal of a StringValue's value, escaped as graphql-js's `printString` does. */
function quote(node: AstNode): string {
  if (typeof node.value !== 'string') throw invalid(node, 'value');
  // eslint-disable-next-line no-control-regex
  return `"${node.value.replace(/[\x00-\x1f"\\\x7f-\x9f]/g, (char) => ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`)}"`;
}

/** An operation's, variable's or fragment's description (graphql 16.15 and 17), on a line of its own. */
function description(node: AstNode): string {
  return absent(node.description) ? '' : `${quote(one(node, 'description', 'StringValue'))}\n`;
}

function name(node: AstNode): string {
  return nameOf(node.name, node, 'name');
}

function nameOf(node: unknown, owner: AstNode, part: string): string {
  if (!isNode(node, 'Name') || typeof node.value !== 'string' || !NAME.test(node.value)) throw invalid(owner, part);
  return node.value;
}

/** An Int, Float or Enum value's text, which must be that token. */
function token(node: AstNode, pattern: RegExp): string {
  if (typeof node.value !== 'string' || !pattern.test(node.value)) throw invalid(node, 'value');
  return node.value;
}

/** `owner[key]`, a node of `kind`. */
function one(owner: AstNode, key: string, kind: string): AstNode {
  const node = owner[key];
  if (!isNode(node, kind)) throw invalid(owner, key);
  return node;
}

/** `owner[key]`, a list (absent: empty) of nodes of `kind`. */
function nodes(owner: AstNode, key: string, kind: string): AstNode[] {
  return list(owner, key).map((node) => {
    if (!isNode(node, kind)) throw invalid(owner, key);
    return node;
  });
}

/** `owner[key]`, a list; absent (graphql leaves some lists out, hand-built ASTs more): empty. */
function list(owner: AstNode, key: string): readonly unknown[] {
  const items = owner[key];
  if (absent(items)) return [];
  if (!Array.isArray(items)) throw invalid(owner, key);
  return items;
}

function absent(field: unknown): field is undefined | null {
  return field === undefined || field === null;
}

/** `start + text + end`, or nothing for no text. */
function wrap(start: string, text: string, end = ''): string {
  return text === '' ? '' : start + text + end;
}

/** The non-empty parts, a space between each. */
function spaced(parts: string[]): string {
  return parts.filter(Boolean).join(' ');
}

function isAstNode(node: unknown): node is AstNode {
  return typeof node === 'object' && node !== null;
}

function isNode(node: unknown, kind: string): node is AstNode {
  return isAstNode(node) && node.kind === kind;
}

/** "an ObjectTypeDefinition node"; a kind that is not a plain identifier is not echoed. */
function describe(node: unknown): string {
  const kind = isAstNode(node) && typeof node.kind === 'string' && /^[A-Za-z]\w{0,63}$/.test(node.kind) ? node.kind : 'unrecognised';
  return `${/^[AEIOU]/i.test(kind) ? 'an' : 'a'} ${kind} node`;
}

function invalid(owner: AstNode, part: string): InvalidInputError {
  return refusal(`the document holds ${describe(owner)} whose ${part} is missing or not valid GraphQL`);
}

function refusal(problem: string): InvalidInputError {
  return invalidInput(REQUEST_CONTEXT, 'document', `${problem}; pass the document's text, or a DocumentNode parsed with its location`);
}
