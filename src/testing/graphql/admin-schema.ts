import { GraphQLScalarType, Kind, buildSchema, type GraphQLSchema, isObjectType } from 'graphql';
import { adminSchemaSDL } from '../../generated/schema-sdl.js';

/** An Int that goes out as a string of digits, as the spec's sample shows `currentPeriodEnd`. */
const intAsDigitString = new GraphQLScalarType<number, string>({
  name: 'Int',
  serialize: (value) => String(Math.trunc(Number(value))),
  parseValue: (value) => Number(value),
  parseLiteral: (ast) => (ast.kind === Kind.INT ? Number(ast.value) : Number.NaN),
});

/** Options of {@link buildAdminSchema}. */
export interface AdminSchemaOptions {
  /** Serialise `Subscription.currentPeriodEnd` as a string of digits. */
  currentPeriodEndAsString: boolean;
}

/**
 * The executable admin schema: graphql/schema.graphql (through src/generated/schema-sdl.ts, no
 * second copy), resolved through root values and views.
 */
export function buildAdminSchema(options: AdminSchemaOptions): GraphQLSchema {
  const schema = buildSchema(adminSchemaSDL);
  if (options.currentPeriodEndAsString) {
    const subscription = schema.getType('Subscription');
    const field = isObjectType(subscription) ? subscription.getFields()['currentPeriodEnd'] : undefined;
    // The field keeps its declared Int type for validation and introspection; only its output changes.
    if (field) field.type = intAsDigitString;
  }
  return schema;
}
