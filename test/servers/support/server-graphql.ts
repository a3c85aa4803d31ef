import { createRequire } from 'node:module';

/**
 * The graphql module the servers load. Node resolves their `import 'graphql'` to graphql's CommonJS
 * build (graphql 16 has no `exports`; 17 maps Node to one build), while vitest hands test files the
 * `module` build: two copies, and graphql's `instanceof GraphQLError` (which tells a server's
 * expected errors from unexpected ones it masks) would not hold across them. Errors the resolvers
 * raise and the checks of `formatError` use this copy.
 */
export const serverGraphQL = createRequire(import.meta.url)('graphql') as typeof import('graphql');
