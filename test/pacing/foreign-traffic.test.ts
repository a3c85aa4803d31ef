import { describe, expect, it } from 'vitest';
import { AdminClient, MemoryPermitStore } from '../../src/index.js';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';
import { useDemoServers } from '../support/demo-server.js';

const LIMIT = 10;
const WINDOW_MS = 1_000;
const startDemoServer = useDemoServers();

// Members 300-399 are live accounts of the demo school (deleted ones are 13, 99, 250, 444).
const grantTo = (admin: AdminClient, member: number) => admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(300 + member) });

describe('429s from traffic the client did not send: "the SDK\'s own 429s drop"', () => {
  it('after its burst meets unannounced requests, the client sends what got through, not half the budget and more', async () => {
    const server = await startDemoServer({ limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS } } });
    // Another script on the key spends 4 of the 10 unannounced.
    const foreign = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: false, maxRetries: 0 });
    await Promise.all([1, 2, 3, 4].map((member) => grantTo(foreign, member)));

    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS }, store: new MemoryPermitStore() } });
    const sentAt: number[] = [];
    let rateLimited = 0;
    admin.on('request', () => void sentAt.push(performance.now()));
    admin.on('rateLimited', () => void (rateLimited += 1));
    const results = await Promise.all(Array.from({ length: 16 }, (_, index) => grantTo(admin, 10 + index)));

    expect(results.every((result) => result.created)).toBe(true);
    // The first burst of 10 met the 4: 6 got through, 4 were refused (the server counts them too).
    expect(rateLimited).toBe(4);
    // After the pause the share is those 6, held for a window: the 10 calls left do not all go at
    // once (halving and growing by a quarter of the limit per window sent 8 or more here).
    const [firstResend] = sentAt.slice(LIMIT) as [number];
    const inTheWindowAfter = sentAt.filter((at) => at >= firstResend && at < firstResend + 0.7 * WINDOW_MS);
    expect(inTheWindowAfter).toHaveLength(6);
  });
});
