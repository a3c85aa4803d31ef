// A codegen plugin that turns the schema file into a TypeScript module exporting its text, so the
// simulator builds its graphql-js schema from the very same SDL the client types come from (one copy
// of the schema, no file lookups at run time).
const { readFileSync } = require('node:fs');
const { resolve } = require('node:path');

module.exports = {
  plugin(_schema, _documents, config) {
    const text = readFileSync(resolve(config.schemaFile), 'utf8');
    return [
      '/** The admin schema\'s SDL, verbatim from graphql/schema.graphql. */',
      `export const adminSchemaSDL: string = ${JSON.stringify(text)};`,
      '',
    ].join('\n');
  },
};
