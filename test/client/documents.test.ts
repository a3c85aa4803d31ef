import { readFileSync, readdirSync } from 'node:fs';
import { buildSchema, getNamedType, isLeafType, isObjectType, parse, TypeInfo, visit, visitWithTypeInfo, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { INTEGER_FIELDS } from '../../src/client/normalize-integers.js';
import { OPERATIONS } from '../../src/index.js';
import { adminSchemaSDL } from '../../src/generated/schema-sdl.js';

const schema: GraphQLSchema = buildSchema(adminSchemaSDL);
const operationFiles = readdirSync('graphql/operations');

describe('operation documents', () => {
  it('there is one document per documented mutation (16), each in its own file', () => {
    expect(Object.keys(OPERATIONS)).toHaveLength(16);
    expect(operationFiles).toHaveLength(16);
    const mutationFields = Object.keys(schema.getMutationType()?.getFields() ?? {});
    expect(Object.values(OPERATIONS).map((op) => op.field).sort()).toEqual(mutationFields.sort());
  });

  it('each document string sent starts with `mutation` (the server counts by that prefix)', () => {
    for (const op of Object.values(OPERATIONS)) expect(op.document.startsWith('mutation ')).toBe(true);
    for (const file of operationFiles) expect(readFileSync(`graphql/operations/${file}`, 'utf8').startsWith('mutation ')).toBe(true);
  });

  it('each payload selection includes every field of the payload type', () => {
    for (const op of Object.values(OPERATIONS)) {
      const payloadType = getNamedType(schema.getMutationType()?.getFields()[op.field]?.type);
      if (!isObjectType(payloadType)) throw new Error(`${op.field} has no object payload`);
      const selected = new Set<string>();
      const typeInfo = new TypeInfo(schema);
      visit(parse(op.document), visitWithTypeInfo(typeInfo, {
        Field(node) {
          if (typeInfo.getParentType() === payloadType) selected.add(node.name.value);
        },
      }));
      expect([...selected].sort(), op.field).toEqual(Object.keys(payloadType.getFields()).sort());
    }
  });

  it('INTEGER_FIELDS lists exactly the Int/BigInt leaves the documents select (string digits become numbers)', () => {
    const integerLeaves = new Set<string>();
    const otherLeaves = new Set<string>();
    for (const op of Object.values(OPERATIONS)) {
      const typeInfo = new TypeInfo(schema);
      visit(parse(op.document), visitWithTypeInfo(typeInfo, {
        Field(node) {
          const type = getNamedType(typeInfo.getType());
          if (!type || !isLeafType(type)) return;
          (['Int', 'BigInt'].includes(type.name) ? integerLeaves : otherLeaves).add(node.name.value);
        },
      }));
    }
    expect([...integerLeaves].sort()).toEqual([...INTEGER_FIELDS].sort());
    // A name that is an integer in one type and something else in another could not be normalised by name.
    expect([...integerLeaves].filter((name) => otherLeaves.has(name))).toEqual([]);
  });
});
