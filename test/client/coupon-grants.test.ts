import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, InvalidResponseError } from '../../src/index.js';
import { createSimulator, startMockServer, type MockServer, type Simulator } from '../../src/testing/index.js';

/** A fetch that records the size of every response body as it came off the wire. */
function countingFetch(sizes: number[]): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await globalThis.fetch(input, init);
    const body = new Uint8Array(await response.arrayBuffer());
    sizes.push(body.byteLength);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

const GRANTS = 100_000;

describe('createCoupon / updateCoupon: "a coupon with its grants" only when asked for (a restricted coupon of 100,000 grants)', () => {
  let sim: Simulator;
  let server: MockServer;
  let apiKey = '';
  let couponId = '';
  const sizes: number[] = [];
  const client = (options: { maxResponseBytes?: number } = {}) => new AdminClient({ apiKey, baseUrl: server.url, limits: false, fetch: countingFetch(sizes), ...options });

  beforeAll(async () => {
    sim = createSimulator({ limits: false });
    const school = sim.addSchool({ name: 'Large school' });
    apiKey = school.addApiKey();
    couponId = school.addCoupon({ restricted: true, code: 'ALUMNI' }).id;
    // The fastest seeding: members and grants straight into the model (about 1 s for 100,000 of each).
    for (const member of school.addMembers(GRANTS)) school.addGrant({ couponId, userId: member.id });
    server = await startMockServer({ simulator: sim });
  });

  afterAll(async () => {
    await server.close();
  });

  it('updateCoupon(id, { active: false }) succeeds and its answer stays under 1 MB (one coupon, no grants)', async () => {
    const coupon = await client().updateCoupon(couponId, { active: false });
    expect(coupon).toMatchObject({ id: couponId, code: 'ALUMNI', active: false, restricted: true });
    expect(coupon).not.toHaveProperty('grants');
    expect(sizes.at(-1)).toBeLessThan(1_000_000);
    expect(sim.school().tables.coupons.get(couponId)?.active).toBe(false);
  });

  it('{ includeGrants: true } asks for every grant: at 100,000 grants the answer (about 20 MB) passes maxResponseBytes, after the change was applied', async () => {
    const error = await client().updateCoupon(couponId, { active: true }, { includeGrants: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect(error).toMatchObject({ problem: 'too_large' });
    expect(sizes.at(-1)).toBeGreaterThan(16 * 1024 * 1024);
    expect(sim.school().tables.coupons.get(couponId)?.active).toBe(true);
  });

  it('{ includeGrants: true } with maxResponseBytes raised returns the coupon with all 100,000 grants', async () => {
    const coupon = await client({ maxResponseBytes: 64 * 1024 * 1024 }).updateCoupon(couponId, {}, { includeGrants: true });
    expect(coupon.grants).toHaveLength(GRANTS);
    expect(coupon.grants?.[0]).toMatchObject({ status: 'granted', userEmail: expect.any(String) });
  });
});
