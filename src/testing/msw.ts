/**
 * `school-admin-sdk/testing/msw`: msw handlers that answer with the simulator (the only module of
 * the package that imports msw, an optional peer dependency).
 * @module school-admin-sdk/testing/msw
 */
import { HttpResponse, http, type RequestHandler } from 'msw';
import type { Simulator } from './simulator.js';

/**
 * msw handlers that answer requests to `baseUrl` with the simulator: `POST
 * ${baseUrl}/admin/graphql` (the admin API) and every other request under `baseUrl` (404, or 405
 * for another method on the admin path), exactly as the loopback server answers them.
 *
 * @example
 * ```ts
 * const server = setupServer(...simulatorHandlers(sim, 'https://school.example'));
 * server.listen({ onUnhandledRequest: 'error' }); // msw 3: { onUnhandledFrame: 'error' }
 * ```
 */
export function simulatorHandlers(simulator: Simulator, baseUrl: string): RequestHandler[] {
  const base = baseUrl.replace(/\/+$/, '');
  const forward = async ({ request }: { request: Request }) => {
    const answer = await simulator.handle({
      method: request.method,
      url: request.url,
      headers: request.headers,
      body: await request.text(),
    });
    return new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
  };
  return [http.post(`${base}/admin/graphql`, forward), http.all(`${base}/*`, forward)];
}
