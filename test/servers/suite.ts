import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminClient,
  AuthenticationError,
  CodedError,
  GraphQLRequestError,
  GraphQLResponseError,
  HttpError,
  PayloadError,
  RateLimitError,
  type AdminClientOptions,
} from '../../src/index.js';
import { FAILS_AFTER_STORING, SERVER_API_KEY } from './support/coupon-resolvers.js';
import type { FrontLimits } from './support/rate-limited-front.js';
import type { RealServerTarget, ServerSetup, ServerUnderTest } from './support/targets.js';

const ROOMY: FrontLimits = { mutations: 1_000, queries: 1_000, windowSeconds: 60 };
const PERCENT_10 = { name: 'Spring sale', couponType: 'percentage', amount: 10 } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** One document, two operations: the server needs `operationName` to pick one. */
const PROBE_OR_CREATE = `
  query Probe { __typename }
  mutation Create($input: AdminCouponInput!) { createCoupon(input: $input) { coupon { id name } errors } }
`;

/** A server for the hooks of one `describe`, started before its tests and closed after them. */
function useServer(target: RealServerTarget, setup: ServerSetup): () => ServerUnderTest {
  let server: ServerUnderTest | undefined;
  beforeAll(async () => {
    server = await target.start(setup);
  });
  afterAll(() => server?.close());
  return () => {
    if (server === undefined) throw new Error('useServer: the server is not running');
    return server;
  };
}

/** Runs `check` against a server of its own, closed afterwards. */
async function withServer(target: RealServerTarget, setup: ServerSetup, check: (server: ServerUnderTest) => Promise<void>): Promise<void> {
  const server = await target.start(setup);
  try {
    await check(server);
  } finally {
    await server.close();
  }
}

/** The SDK against `server`: no pacing (the server's limiter decides), the client's other defaults. */
function clientOf(server: ServerUnderTest, options: Partial<AdminClientOptions> = {}): AdminClient {
  return new AdminClient({ apiKey: SERVER_API_KEY, baseUrl: server.url, limits: false, retryBaseDelayMs: 1, maxRetryDelayMs: 5, ...options });
}

/** A fetch that asks for `application/json` only, as a legacy client would. */
const acceptJsonOnly: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('accept', 'application/json');
  return fetch(input, { ...init, headers });
};

/**
 * The SDK against a GraphQL server we did not write, serving the admin schema (coupon mutations
 * resolved in memory) behind a rate limiter that answers as the spec's Limits rule 6 says. One
 * `describe` per rule; the same checks for every server.
 */
export function realServerSuite(target: RealServerTarget): void {
  describe('a typed result', () => {
    const server = useServer(target, { schema: 'current', limits: ROOMY });

    it('createCoupon resolves to the coupon the server stored, read from application/graphql-response+json', async () => {
      const { data, response } = await clientOf(server()).createCoupon(PERCENT_10).withResponse();
      expect(data).toMatchObject({ name: 'Spring sale', couponType: 'percentage', amount: 10, active: true, appliedCount: 0 });
      expect(server().coupons.get(data.id)?.name).toBe('Spring sale');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
      expect(response.requestId).toMatch(UUID);
    });
  });

  describe('Errors rule 1: coded errors are raised into the top-level errors array', () => {
    const server = useServer(target, { schema: 'current', limits: ROOMY });

    it('updateCoupon of an unknown coupon: CodedError COUPON-001 with the path and details the server sent', async () => {
      const unknown = '00000000-0000-4000-8000-00000000dead';
      const error = await clientOf(server()).updateCoupon(unknown, { active: false }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CodedError);
      expect(error).toMatchObject({ code: 'COUPON-001', path: ['updateCoupon'], details: { id: unknown }, status: 200 });
    });
  });

  describe("Errors rule 2: recoverable failures come in the payload's errors list", () => {
    const server = useServer(target, { schema: 'current', limits: ROOMY });

    it("createCoupon with a code already taken: PayloadError with the payload's message, the coupon null", async () => {
      const admin = clientOf(server());
      await admin.createCoupon({ ...PERCENT_10, code: 'SPRING10' });
      const error = await admin.createCoupon({ ...PERCENT_10, code: 'SPRING10' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PayloadError);
      expect((error as PayloadError).messages).toEqual(['Code has already been taken']);
    });
  });

  describe('Limits rule 6: HTTP 429 with Retry-After, X-RateLimit-* and RATE_LIMIT_EXCEEDED', () => {
    // A fresh limiter per test: one mutation per second.
    const ONE_PER_SECOND: ServerSetup = { schema: 'current', limits: { mutations: 1, queries: 100, windowSeconds: 1 } };

    it('"exceeding the limit returns HTTP 429": RateLimitError with the operation type, limit and wait the server stated', async () => {
      await withServer(target, ONE_PER_SECOND, async (server) => {
        const admin = clientOf(server, { maxRetries: 0 });
        await admin.createCoupon(PERCENT_10);
        const error = await admin.createCoupon(PERCENT_10).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(RateLimitError);
        expect(error).toMatchObject({ operationType: 'mutations', limit: 1, status: 429 });
        expect((error as RateLimitError).retryAfterMs).toBeGreaterThanOrEqual(1_000);
        expect((error as RateLimitError).resetAt).toBeGreaterThan(Date.now() / 1000 - 1);
      });
    });

    it('the SDK waits out Retry-After and sends the mutation again: it gets through', async () => {
      await withServer(target, ONE_PER_SECOND, async (server) => {
        const admin = clientOf(server, { maxRetries: 2 });
        const first = await admin.createCoupon(PERCENT_10);
        const { data: second, response } = await admin.createCoupon(PERCENT_10).withResponse();
        expect(server.refused).toBe(1);
        expect(response.attempt).toBe(2);
        expect(server.coupons.size).toBe(2);
        expect(second.id).not.toBe(first.id);
      });
    });
  });

  describe('request errors: refused before anything ran, whatever the status and media type', () => {
    const drifted = useServer(target, { schema: 'without-applied-count', limits: ROOMY });
    const server = useServer(target, { schema: 'current', limits: ROOMY });

    it('a deployed schema without AdminCoupon.appliedCount: GraphQLRequestError naming the field, with status, headers and locations, never sent again', async () => {
      const before = drifted().arrivals.length;
      // updateCoupon is safe to repeat, and the client may retry: a request error is still sent once.
      const error = await clientOf(drifted(), { maxRetries: 3 }).updateCoupon('00000000-0000-4000-8000-000000000001', { active: false }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GraphQLRequestError);
      expect(error).toBeInstanceOf(GraphQLResponseError);
      expect(error).not.toBeInstanceOf(HttpError);
      const refused = error as GraphQLRequestError;
      expect(refused.missingFields).toEqual([{ type: 'AdminCoupon', field: 'appliedCount' }]);
      expect(refused.message).toContain("the deployed server's schema lacks the field AdminCoupon.appliedCount, which this SDK version selects");
      expect(refused.messages).toEqual(['Cannot query field "appliedCount" on type "AdminCoupon".']);
      expect(refused.graphQLErrors[0]).toMatchObject({ locations: [{ line: 1, column: expect.any(Number) }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
      expect(refused.serverCode).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(refused.executed).toBe(false);
      expect(refused.status).toBe(400);
      expect(refused.headers?.['content-type']).toMatch(/^application\/graphql-response\+json/);
      expect(refused.requestId).toMatch(UUID);
      expect(drifted().arrivals.length - before).toBe(1);
    });

    it('the same schema drift under Accept: application/json (200 or 400, as the server chooses): the same GraphQLRequestError', async () => {
      const error = await clientOf(drifted(), { fetch: acceptJsonOnly }).createCoupon(PERCENT_10).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GraphQLRequestError);
      expect((error as GraphQLRequestError).missingFields).toEqual([{ type: 'AdminCoupon', field: 'appliedCount' }]);
      expect([200, 400]).toContain((error as GraphQLRequestError).status);
      expect((error as GraphQLRequestError).headers?.['content-type']).toMatch(/^application\/json/);
      expect(drifted().coupons.size).toBe(0);
    });

    it("a syntax error through request(): GraphQLRequestError whose message names the server's first message and location", async () => {
      const error = await clientOf(server()).request('query { coupons(code: "SPRING") ').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GraphQLRequestError);
      const refused = error as GraphQLRequestError;
      expect(refused.message).toMatch(/^Failed to run the request: the server refused the request \(HTTP 400\): Syntax Error: Expected Name, found <EOF>\. Nothing ran\./);
      expect(refused.graphQLErrors[0]?.locations).toEqual([{ line: 1, column: 33 }]);
      expect(refused.missingFields).toEqual([]);
    });
  });

  describe('an unexpected error the server masks, in a mutation that may have run', () => {
    const server = useServer(target, { schema: 'current', limits: ROOMY });

    it('data: null with an error whose path names the mutation: GraphQLResponseError, executed false, saying it may have run; not sent again, and it did run', async () => {
      const before = server().arrivals.length;
      const error = await clientOf(server(), { maxRetries: 3 }).createCoupon({ ...PERCENT_10, name: FAILS_AFTER_STORING }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GraphQLResponseError);
      expect(error).not.toBeInstanceOf(GraphQLRequestError);
      const failed = error as GraphQLResponseError;
      expect(failed.executed).toBe(false);
      expect(failed.graphQLErrors[0]?.path).toEqual(['createCoupon']);
      expect(failed.message).toContain('It may have run (the error stands at createCoupon)');
      // The server masked its internal text (yoga by default, Apollo through formatError).
      expect(failed.message).not.toContain('db-primary');
      expect(server().arrivals.length - before).toBe(1);
      // What "may have run" means here: the coupon was stored before the failure.
      expect([...server().coupons.values()].filter((coupon) => coupon.name === FAILS_AFTER_STORING)).toHaveLength(1);
    });
  });

  describe('request(document, variables, { operationName })', () => {
    const server = useServer(target, { schema: 'current', limits: ROOMY });

    it('a document with a query and a mutation runs the operation operationName names', async () => {
      const admin = clientOf(server());
      const created = await admin.request<{ createCoupon: { coupon: { id: string; name: string } } }>(PROBE_OR_CREATE, { input: PERCENT_10 }, { operationName: 'Create' });
      expect(server().coupons.get(created.createCoupon.coupon.id)?.name).toBe('Spring sale');
      await expect(admin.request(PROBE_OR_CREATE, {}, { operationName: 'Probe' })).resolves.toEqual({ __typename: 'Query' });
      expect(server().arrivals.slice(-2).map((arrival) => arrival.operationName)).toEqual(['Create', 'Probe']);
    });

    it('without operationName the server refuses such a document: GraphQLRequestError, nothing ran', async () => {
      const before = server().coupons.size;
      const error = await clientOf(server()).request(PROBE_OR_CREATE, { input: PERCENT_10 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(GraphQLRequestError);
      expect((error as GraphQLRequestError).status).toBe(400);
      expect(server().coupons.size).toBe(before);
    });
  });

  describe('authentication', () => {
    const server = useServer(target, { schema: 'current', limits: ROOMY });

    it('an unknown key: AuthenticationError (HTTP 401, UNAUTHENTICATED), not a request error', async () => {
      const error = await clientOf(server(), { apiKey: 'sk_live_not_the_servers_key_000' }).createCoupon(PERCENT_10).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(error).toMatchObject({ status: 401, serverCode: 'UNAUTHENTICATED' });
    });
  });
}
