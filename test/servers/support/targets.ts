import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { adminTypeDefs, couponResolvers, couponStore, SERVER_API_KEY, unauthenticated, type SchemaVersion } from './coupon-resolvers.js';
import { serverGraphQL } from './server-graphql.js';
import { serveBehindLimiter, type FrontLimits, type FrontRequest, type RunningServer } from './rate-limited-front.js';

/** What one test asks of a server. */
export interface ServerSetup {
  schema: SchemaVersion;
  limits: FrontLimits;
}

/** A server we did not write, serving the admin schema with the coupon resolvers. */
export interface ServerUnderTest extends RunningServer {
  /** The coupons the server stored (what ran, whatever the client was told). */
  coupons: ReturnType<typeof couponStore>;
}

/** A GraphQL server implementation the suite runs the SDK against. */
export interface RealServerTarget {
  /** Package and installed version, e.g. `graphql-yoga 5.24.1`. */
  name: string;
  start(setup: ServerSetup): Promise<ServerUnderTest>;
}

const require = createRequire(import.meta.url);
/** `name version` of an installed package (its package.json is not always exported: found from its entry up). */
function installed(name: string): string {
  for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name: found, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
    if (found === name) return `${name} ${version}`;
  }
  throw new Error(`installed: no package.json of ${name}`);
}

/** The key check of both servers: in their context function, as an app would write it. */
function requireKey(headers: { get(name: string): string | null | undefined }): void {
  if (headers.get('x-service-api-key') !== SERVER_API_KEY) throw unauthenticated();
}

/** GraphQL Yoga with its defaults: masked errors, GraphQL-over-HTTP status codes. */
export const yogaTarget: RealServerTarget = {
  name: installed('graphql-yoga'),
  start: async ({ schema, limits }) => {
    const coupons = couponStore();
    const yoga = createYoga({
      schema: createSchema({ typeDefs: adminTypeDefs(schema), resolvers: couponResolvers(coupons) }),
      graphqlEndpoint: '/admin/graphql',
      logging: false,
      landingPage: false,
      graphiql: false,
      context: ({ request }) => {
        requireKey(request.headers);
        return {};
      },
    });
    const handle = async ({ method, url, headers, body }: FrontRequest) => {
      const response = await yoga.fetch(url, { method, headers, body });
      return { status: response.status, headers: response.headers, body: await response.text() };
    };
    const running = await serveBehindLimiter(handle, limits);
    return Object.assign(running, { coupons });
  },
};

/**
 * Apollo Server through its integration API (`executeHTTPGraphQLRequest`, what its Express and
 * Fastify integrations call), stack traces off and unexpected errors masked by `formatError`, as
 * Apollo's documentation recommends for production.
 */
export const apolloTarget: RealServerTarget = {
  name: installed('@apollo/server'),
  start: async ({ schema, limits }) => {
    const coupons = couponStore();
    const server = new ApolloServer({
      typeDefs: adminTypeDefs(schema),
      resolvers: couponResolvers(coupons),
      includeStacktraceInErrorResponses: false,
      formatError: maskUnexpected,
      logger: SILENT,
    });
    await server.start();
    const handle = async ({ method, url, headers, body }: FrontRequest) => {
      const map = new HeaderMap();
      headers.forEach((value, name) => map.set(name, value));
      const answer = await server.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method, headers: map, search: new URL(url).search, body: jsonOrText(body) },
        context: async () => {
          requireKey(map);
          return {};
        },
      });
      if (answer.body.kind !== 'complete') throw new Error('Apollo answered with incremental delivery, which the admin API never uses');
      const responseHeaders = new Headers();
      for (const [name, value] of answer.headers) responseHeaders.set(name, value);
      return { status: answer.status ?? 200, headers: responseHeaders, body: answer.body.string };
    };
    const running = await serveBehindLimiter(handle, limits);
    const closeFront = running.close;
    return Object.assign(running, { coupons, close: () => Promise.all([closeFront(), server.stop()]).then(() => undefined) });
  },
};

/** Unexpected resolver failures become one generic message; GraphQL errors (coded ones) pass as they are. */
function maskUnexpected(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  if (unwrapResolverError(error) instanceof serverGraphQL.GraphQLError) return formatted;
  return { message: 'Internal server error', ...(formatted.locations ? { locations: formatted.locations } : {}), ...(formatted.path ? { path: formatted.path } : {}), extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

function jsonOrText(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

const SILENT = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
