import { Lexer, Source, TokenKind } from 'graphql';
import type { RetrySafety } from '../client/operations.js';

/** Top-level keywords that open an executable definition (`{` alone opens a shorthand query). */
const DEFINITION_KEYWORDS = new Set(['query', 'mutation', 'subscription', 'fragment']);

/** The token that closes each opening one. */
const CLOSING: ReadonlyMap<TokenKind, TokenKind> = new Map([
  [TokenKind.BRACE_L, TokenKind.BRACE_R],
  [TokenKind.PAREN_L, TokenKind.PAREN_R],
  [TokenKind.BRACKET_L, TokenKind.BRACKET_R],
]);

/** One top-level definition of a document: its kind (`query` for `{ ... }`) and name, if any. */
interface Definition {
  kind: string;
  name: string | undefined;
}

/**
 * Whether a document given to `request()` may be sent again after a failure that may have reached
 * the server, judged by what it is, not by its first characters: a mutation written as a template
 * literal (a leading newline, indentation), after a `# comment` or a fragment is still a mutation.
 * Without `operationName`, only a document whose single operation is a query is safe; several
 * operations (the server refuses them), a mutation, a subscription or a document that cannot be
 * read are not. With `operationName`, the operation of that name decides: safe only when it is a
 * query and the only operation of that name (a document holding a query and a mutation, the
 * mutation selected, is not safe).
 *
 * The rate-limit bucket is another question, answered as the server does (`operationTypeOf`:
 * a mutation only when the text starts with `mutation`, whichever operation is selected).
 */
export function retrySafetyOfDocument(text: string, operationName?: string): RetrySafety {
  let definitions: Definition[] | undefined;
  try {
    definitions = topLevelDefinitions(text);
  } catch {
    // A lexer error (an unterminated string, a character GraphQL does not know).
    return 'unsafe';
  }
  if (definitions === undefined) return 'unsafe';
  const operations = definitions.filter((definition) => definition.kind !== 'fragment');
  const selected = operationName === undefined ? operations : operations.filter((definition) => definition.name === operationName);
  return selected.length === 1 && selected[0]?.kind === 'query' ? 'idempotent' : 'unsafe';
}

/**
 * The kinds and names of a document's top-level definitions (`query` for `{ ... }` shorthand),
 * read with graphql-js's own lexer rather than its parser: which definitions a document holds is
 * decided at nesting depth 0, where a definition is a keyword, an optional name, a header of
 * `on Type`, `@` directives and parenthesised arguments or variables, then a `{ ... }` block.
 * Comments, strings and block strings are single tokens, so braces or keywords inside them count
 * for nothing. Anything else at depth 0, unbalanced or mismatched brackets, or an unfinished
 * definition gives `undefined` (unsure). The parser (18 kB minified) stays out of an app's bundle
 * this way.
 */
function topLevelDefinitions(text: string): Definition[] | undefined {
  const lexer = new Lexer(new Source(text));
  const definitions: Definition[] = [];
  const closers: TokenKind[] = [];
  let inHeader = false;
  // Right after the keyword: a name there is the definition's own.
  let nameNext = false;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
    const closer = CLOSING.get(token.kind);
    if (closers.length > 0) {
      if (closer !== undefined) closers.push(closer);
      else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.PAREN_R || token.kind === TokenKind.BRACKET_R) {
        if (closers.pop() !== token.kind) return undefined;
      }
      continue;
    }
    const named = nameNext;
    nameNext = false;
    if (token.kind === TokenKind.BRACE_L) {
      // A `{` that does not end a definition's header opens a shorthand query.
      if (!inHeader) definitions.push({ kind: 'query', name: undefined });
      inHeader = false;
      closers.push(TokenKind.BRACE_R);
    } else if (inHeader && token.kind === TokenKind.NAME) {
      // The operation or fragment name, `on Type`, directive names.
      const current = definitions.at(-1);
      if (named && current !== undefined) current.name = token.value;
    } else if (inHeader && token.kind === TokenKind.AT) {
      // A directive.
    } else if (inHeader && token.kind === TokenKind.PAREN_L) {
      closers.push(TokenKind.PAREN_R);
    } else if (!inHeader && token.kind === TokenKind.NAME && DEFINITION_KEYWORDS.has(token.value)) {
      definitions.push({ kind: token.value, name: undefined });
      inHeader = true;
      nameNext = true;
    } else {
      return undefined;
    }
  }
  return closers.length === 0 && !inHeader ? definitions : undefined;
}
