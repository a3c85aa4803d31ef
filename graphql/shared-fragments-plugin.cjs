// A codegen plugin around @graphql-codegen/typed-document-node: the same classes, types and
// exports, but the document strings are written once each. With `documentMode: 'string'`,
// typed-document-node repeats every fragment a document spreads in that document's text (and the
// printer's indentation and line breaks with it), which made the 16 documents 11 kB of an app's
// minified bundle. Here each fragment's text is one constant, interpolated into the documents that
// need it, and every definition is written without ignored characters (graphql-js's
// stripIgnoredCharacters: the same document for the server, and the same text whatever graphql
// major prints it). Typed-document-node has no option for either.
const typedDocumentNode = require('@graphql-codegen/typed-document-node');
const { Kind, parse, print, stripIgnoredCharacters } = require('graphql');

/** A document string as typed-document-node writes it: the template literal's text. */
const DOCUMENT_LITERAL = /new TypedDocumentString\(`([^`]*)`/g;

/** The constant holding a fragment's text. */
const fragmentConstant = (name) => `${name}FragmentText`;

/** Text as it may stand inside a template literal. */
const templateText = (text) => text.replaceAll('\\', '\\\\').replaceAll('`', '\\`').replaceAll('${', '\\${');

module.exports = {
  plugin(schema, documents, config, info) {
    const output = typedDocumentNode.plugin(schema, documents, config, info);
    const fragments = new Map();
    const content = output.content.replace(DOCUMENT_LITERAL, (_whole, literal) => {
      // typed-document-node doubles the backslashes of the printed operation (not of the fragments).
      const text = literal.replaceAll('\\\\', '\\');
      const { definitions } = parse(text);
      const parts = definitions.map((definition) => {
        const compact = stripIgnoredCharacters(print(definition));
        if (definition.kind !== Kind.FRAGMENT_DEFINITION) return templateText(compact);
        const name = definition.name.value;
        if (fragments.has(name) && fragments.get(name) !== compact) throw new Error(`shared-fragments-plugin: fragment ${name} is defined twice, differently`);
        fragments.set(name, compact);
        return `\${${fragmentConstant(name)}}`;
      });
      // A fragment's own document (no operation) is left unused by the SDK: written without a
      // template literal, which bundlers count as a side effect (it may call toString), its
      // pure-annotated constant drops out of an app's bundle as pureMagicComment intends.
      if (definitions.every((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)) {
        const names = definitions.map((definition) => fragmentConstant(definition.name.value));
        return `new TypedDocumentString(${names.length === 1 ? names[0] : `/*#__PURE__*/ [${names.join(', ')}].join('')`}`;
      }
      return `new TypedDocumentString(\`${parts.join('')}\``;
    });
    const constants = [...fragments]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, text]) => `const ${fragmentConstant(name)} = ${JSON.stringify(text)};`);
    // Before the first document that interpolates them (after the TypedDocumentString class).
    const at = content.indexOf('\nexport const ');
    if (constants.length > 0 && at < 0) throw new Error('shared-fragments-plugin: found fragments but no document constant');
    return {
      ...output,
      content: at < 0 ? content : `${content.slice(0, at)}\n${constants.join('\n')}${content.slice(at)}`,
    };
  },
  validate: typedDocumentNode.validate,
};
