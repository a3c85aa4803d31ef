import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** A request as the GraphQL server behind the front gets it. */
export interface FrontRequest {
  method: string;
  /** Absolute, e.g. `http://127.0.0.1:5000/admin/graphql`. */
  url: string;
  headers: Headers;
  body: string;
}

/** What the GraphQL server answered. */
export interface FrontResponse {
  status: number;
  headers: Headers;
  body: string;
}

/** One GraphQL server (yoga, Apollo, ...) as a function of the request. */
export type GraphQLHandler = (request: FrontRequest) => Promise<FrontResponse>;

/** A request that reached the GraphQL server (past the limiter). */
export interface Arrival {
  query: string;
  operationName: string | undefined;
}

/** A GraphQL server listening on loopback behind the rate limiter. */
export interface RunningServer {
  url: string;
  /** Requests the GraphQL server got, in order (what "sent once" counts). */
  arrivals: Arrival[];
  /** Requests the limiter answered with 429. */
  readonly refused: number;
  close(): Promise<void>;
}

/** The front's limit per key and operation type (spec, Limits: one counter per key and type). */
export interface FrontLimits {
  mutations: number;
  queries: number;
  windowSeconds: number;
}

/**
 * Serves `handler` on `POST /admin/graphql` (127.0.0.1, a free port), behind a per-key limiter
 * (rate-limiter-flexible) that answers as the spec's Limits rule 6 says: HTTP 429 with
 * `Retry-After`, `X-RateLimit-Limit`, `X-RateLimit-Reset` and a `RATE_LIMIT_EXCEEDED` error.
 * Like a gateway, it adds an `X-Request-Id` to every answer.
 */
export async function serveBehindLimiter(handler: GraphQLHandler, limits: FrontLimits): Promise<RunningServer> {
  const limiters = {
    mutations: new RateLimiterMemory({ points: limits.mutations, duration: limits.windowSeconds }),
    queries: new RateLimiterMemory({ points: limits.queries, duration: limits.windowSeconds }),
  };
  const arrivals: Arrival[] = [];
  let refused = 0;
  const server = createServer({ keepAlive: true }, (request, response) => {
    void answer(request, response).catch(() => response.destroy());
  });
  let origin = '';

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname !== '/admin/graphql') return send(response, { status: 404, headers: new Headers({ 'content-type': 'text/plain' }), body: 'Not found' });
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
    const params = requestParams(body);
    // Spec, Limits rule 3: a mutation when the query string starts with `mutation`.
    const type = params.query.startsWith('mutation') ? 'mutations' : 'queries';
    const limit = limits[type];
    try {
      await limiters[type].consume(headers.get('x-service-api-key') ?? '');
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal;
      refused += 1;
      return send(response, tooManyRequests(type, limit, refusal.msBeforeNext));
    }
    arrivals.push(params);
    send(response, await handler({ method: request.method ?? 'GET', url: url.href, headers, body }));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    arrivals,
    get refused() {
      return refused;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function tooManyRequests(type: 'mutations' | 'queries', limit: number, msBeforeNext: number): FrontResponse {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  const resetAt = Math.ceil((Date.now() + msBeforeNext) / 1000);
  const body = {
    errors: [
      {
        message: `Rate limit exceeded: at most ${limit} ${type} per window. Retry after ${retryAfter} seconds.`,
        extensions: { code: 'RATE_LIMIT_EXCEEDED', operation_type: type, limit, retry_after: retryAfter, reset_at: resetAt },
      },
    ],
  };
  const headers = new Headers({ 'content-type': 'application/json', 'retry-after': String(retryAfter), 'x-ratelimit-limit': String(limit), 'x-ratelimit-reset': String(resetAt) });
  return { status: 429, headers, body: JSON.stringify(body) };
}

function send(response: ServerResponse, answer: FrontResponse): void {
  const headers: Record<string, string> = { 'x-request-id': randomUUID() };
  answer.headers.forEach((value, name) => (headers[name] = value));
  response.writeHead(answer.status, headers);
  response.end(answer.body);
}

function requestParams(body: string): Arrival {
  try {
    const json = JSON.parse(body) as { query?: unknown; operationName?: unknown };
    return { query: typeof json.query === 'string' ? json.query : '', operationName: typeof json.operationName === 'string' ? json.operationName : undefined };
  } catch {
    return { query: '', operationName: undefined };
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
