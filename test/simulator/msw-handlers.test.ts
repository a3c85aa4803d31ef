import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorHandlers } from '../../src/testing/msw.js';
import { smallSchool } from './support/small-school.js';
import { listenOptions } from '../support/msw-listen.js';

const BASE_URL = 'https://school.example';
const { sim, key } = smallSchool({ limits: { queries: { limit: 2, windowMs: 60_000 } } });
const server = setupServer(...simulatorHandlers(sim, BASE_URL));

beforeAll(() => server.listen(listenOptions('error')));
afterAll(() => server.close());

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${BASE_URL}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-Service-API-Key': key }, body: JSON.stringify(body) });
}

describe('simulatorHandlers: the simulator behind msw', () => {
  it('answers POST {baseUrl}/admin/graphql with the simulator', async () => {
    const answer = await post('/admin/graphql', { query: 'mutation { revokeCouponGrant(grantId: "g") { errors } }' });
    expect(answer.status).toBe(200);
    expect((await answer.json()).errors[0].extensions.error.code).toBe('COUPON-004');
  });

  it('answers other paths under baseUrl as the server does (404 for /graphql)', async () => {
    const answer = await post('/graphql', { query: '{ __typename }' });
    expect(answer.status).toBe(404);
  });

  it('passes 429 status and headers through', async () => {
    await post('/admin/graphql', { query: '{ __typename }' });
    await post('/admin/graphql', { query: '{ __typename }' });
    const limited = await post('/admin/graphql', { query: '{ __typename }' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('x-ratelimit-limit')).toBe('2');
    expect((await limited.json()).errors[0].extensions.code).toBe('RATE_LIMIT_EXCEEDED');
  });
});
