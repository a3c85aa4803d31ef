import { readFileSync, readdirSync } from 'node:fs';
import { buildSchema, getNamedType, isLeafType, isObjectType, parse, TypeInfo, visit, visitWithTypeInfo, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { INTEGER_FIELDS } from '../../src/client/pipeline/normalize-integers.js';
import { COUPON_WITH_GRANTS } from '../../src/client/facade/operations.js';
import { OPERATIONS } from '../../src/index.js';
import { adminSchemaSDL } from '../../src/generated/schema-sdl.js';

const schema: GraphQLSchema = buildSchema(adminSchemaSDL);
const operationFiles = readdirSync('graphql/operations');
/** Every document the client sends: one per documented mutation, and the coupon documents that also select the grants. */
const ALL_DOCUMENTS = [...Object.values(OPERATIONS), ...Object.values(COUPON_WITH_GRANTS)];

describe('operation documents', () => {
  it('there is one document per documented mutation (16), plus createCoupon and updateCoupon with grants (includeGrants), each in its own file', () => {
    expect(Object.keys(OPERATIONS)).toHaveLength(16);
    expect(Object.values(COUPON_WITH_GRANTS).map((op) => op.field)).toEqual(['createCoupon', 'updateCoupon']);
    expect(operationFiles).toHaveLength(18);
    const mutationFields = Object.keys(schema.getMutationType()?.getFields() ?? {});
    expect(Object.values(OPERATIONS).map((op) => op.field).sort()).toEqual(mutationFields.sort());
  });

  it('each document string sent starts with `mutation` (the server counts by that prefix)', () => {
    for (const op of ALL_DOCUMENTS) expect(op.document.startsWith('mutation ')).toBe(true);
    for (const file of operationFiles) expect(readFileSync(`graphql/operations/${file}`, 'utf8').startsWith('mutation ')).toBe(true);
  });

  it('each payload selection includes every field of the payload type', () => {
    for (const op of ALL_DOCUMENTS) {
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
    for (const op of ALL_DOCUMENTS) {
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

  it('the default coupon documents leave the grants out; the includeGrants ones select them', () => {
    const fieldsOf = (document: string): string[] => {
      const names: string[] = [];
      visit(parse(document), { Field: (node) => void names.push(node.name.value) });
      return names;
    };
    for (const field of ['createCoupon', 'updateCoupon'] as const) {
      expect(fieldsOf(OPERATIONS[field].document)).not.toContain('grants');
      expect(fieldsOf(COUPON_WITH_GRANTS[field].document)).toContain('grants');
    }
  });
});
