// A codegen plugin that writes, from the schema and the operation documents, what each operation's
// variables are: their GraphQL types, and the fields of every input object type they reach, down
// through lists and non-null wrappers. The client checks every call's variables against it before
// sending (numbers against Int/Float/BigInt, Dates converted to Unix seconds), so a field added to
// the schema is checked without anyone writing a line for it.
const { Kind, getNamedType, isEnumType, isInputObjectType, isScalarType, print } = require('graphql');

// How the client treats each scalar. A new custom scalar must be given a kind here (and, if it is
// numeric, a rule in src/validation/variable-rules.ts): generation fails until it is.
const SCALAR_KINDS = { Int: 'int', Float: 'float', BigInt: 'bigint', String: 'string', ID: 'id', Boolean: 'boolean' };

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
          fields[field.name] = String(field.type);
          reach(getNamedType(field.type).name);
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
          variables[variable.variable.name.value] = print(variable.type);
          let type = variable.type;
          while (type.kind !== Kind.NAMED_TYPE) type = type.type;
          reach(type.name.value);
        }
        operations[root.name.value] = variables;
      }
    }
    const sorted = (object) => Object.fromEntries(Object.entries(object).sort(([a], [b]) => a.localeCompare(b)));
    const constant = (name, doc, value) => [`/** ${doc} */`, `export const ${name} = ${JSON.stringify(sorted(value), null, 2)} as const;`, ''];
    return [
      ...constant('OPERATION_VARIABLES', "The variables of each operation document, by the operation's root field, as GraphQL type references.", operations),
      ...constant('INPUT_OBJECT_FIELDS', 'The fields of every input object type those variables reach, as GraphQL type references.', inputObjects),
      ...constant('INPUT_TYPE_KINDS', 'What every named type the variables reach is: a scalar kind, an enum or an input object.', kinds),
      '/** A scalar kind, `enum` or `input`. */',
      'export type InputTypeKind = (typeof INPUT_TYPE_KINDS)[keyof typeof INPUT_TYPE_KINDS];',
      '',
    ].join('\n');
  },
};
