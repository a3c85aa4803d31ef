// A codegen plugin that writes, from the schema and the operation documents, what each operation's
// variables are: their GraphQL types, and the fields of every input object type they reach, down
// through lists and non-null wrappers. The client checks every call's variables against it before
// sending (numbers against Int/Float/BigInt, Dates converted to Unix seconds), so a field added to
// the schema is checked without anyone writing a line for it.
//
// Only what changes the check is written: a variable or input field whose type is a String, ID,
// Boolean or enum (not a list) is left out, since the client checks an unlisted value exactly as it
// checks one of those types (NaN, ±Infinity and invalid Dates refused anywhere, nothing converted),
// and so are those kinds themselves. Lists stay (their items are checked in order, each by its
// type), as does every input object the variables reach. This keeps the table, which every app's
// bundle carries, to the numeric leaves and the paths to them.
const { Kind, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, print, typeFromAST } = require('graphql');

// How the client treats each scalar. A new custom scalar must be given a kind here (and, if it is
// numeric, a rule in src/validation/variable-rules.ts): generation fails until it is.
const SCALAR_KINDS = { Int: 'int', Float: 'float', BigInt: 'bigint', String: 'string', ID: 'id', Boolean: 'boolean' };
// The kinds the client checks otherwise than a value of no listed type (with lists, which wrap them).
const CHECKED_KINDS = new Set(['int', 'float', 'bigint', 'input']);

/** Whether a value of this (schema) type is checked otherwise than a value of no listed type: a list, a numeric scalar or an input object. */
function checked(type) {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return true;
  if (isInputObjectType(inner)) return true;
  if (isEnumType(inner)) return false;
  return CHECKED_KINDS.has(SCALAR_KINDS[inner.name]);
}

module.exports = {
  plugin(schema, documents) {
    const operations = {};
    const kinds = {};
    const inputObjects = {};
    const reach = (typeName) => {
      if (kinds[typeName] !== undefined) return;
      const type = schema.getType(typeName);
      if (isScalarType(type)) {
        const kind = SCALAR_KINDS[type.name];
        if (kind === undefined) throw new Error(`operation-inputs-plugin: scalar ${type.name} has no kind; add it to SCALAR_KINDS`);
        kinds[typeName] = kind;
      } else if (isEnumType(type)) {
        kinds[typeName] = 'enum';
      } else if (isInputObjectType(type)) {
        kinds[typeName] = 'input';
        const fields = {};
        for (const field of Object.values(type.getFields())) {
          reach(getNamedType(field.type).name);
          if (checked(field.type)) fields[field.name] = String(field.type);
        }
        inputObjects[typeName] = fields;
      } else {
        throw new Error(`operation-inputs-plugin: ${typeName} is not an input type`);
      }
    };
    for (const { document } of documents) {
      for (const definition of document.definitions) {
        if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
        const root = definition.selectionSet.selections.find((selection) => selection.kind === Kind.FIELD);
        if (root === undefined) throw new Error('operation-inputs-plugin: an operation without a root field');
        const variables = {};
        for (const variable of definition.variableDefinitions ?? []) {
          const type = typeFromAST(schema, variable.type);
          if (type === undefined) throw new Error(`operation-inputs-plugin: variable $${variable.variable.name.value} has a type the schema lacks`);
          reach(getNamedType(type).name);
          if (checked(type)) variables[variable.variable.name.value] = print(variable.type);
        }
        if (Object.keys(variables).length > 0) operations[root.name.value] = variables;
      }
    }
    // What the client checks as it checks a value of no listed type: not written.
    const listedKinds = Object.fromEntries(Object.entries(kinds).filter(([, kind]) => CHECKED_KINDS.has(kind)));
    const sorted = (object) => Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
    const constant = (name, doc, value) => [`/** ${doc} */`, `export const ${name} = ${JSON.stringify(sorted(value), null, 2)} as const;`, ''];
    return [
      ...constant('OPERATION_VARIABLES', "The checked variables of each operation document (String, ID, Boolean and enum ones left out), by the operation's root field, as GraphQL type references.", operations),
      ...constant('INPUT_OBJECT_FIELDS', 'The checked fields (String, ID, Boolean and enum ones left out) of every input object type those variables reach, as GraphQL type references.', inputObjects),
      ...constant('INPUT_TYPE_KINDS', 'What each numeric scalar and input object the variables reach is.', listedKinds),
      '/** A numeric scalar kind or `input`. */',
      'export type InputTypeKind = (typeof INPUT_TYPE_KINDS)[keyof typeof INPUT_TYPE_KINDS];',
      '',
    ].join('\n');
  },
};
