import { describe, expect, it } from 'vitest';
import { AdminClient, MemoryPermitStore } from '../../src/index.js';
import { createSimulator, DEMO_API_KEY, seedDemoSchool, startMockServer } from '../../src/testing/index.js';
import { runWorkload } from '../../bench/soak/workload.js';

/**
 * A short run of the soak workload (bench/soak.ts runs 10,000 calls in a separate server process and
 * prints the figures): mixed traffic under a binding scaled window, over loopback HTTP.
 */
describe('soak: mixed traffic under the rate limit', () => {
  it('1,000 mixed calls at 100 per 500 ms: zero 429s, zero unexplained failures, only the provoked ENROLLMENT-002s', async () => {
    const rule = { limit: 100, windowMs: 500 };
    const simulator = createSimulator({ limits: { mutations: rule, queries: rule } });
    seedDemoSchool(simulator);
    const server = await startMockServer({ simulator });
    try {
      const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { mutations: rule, queries: rule, store: new MemoryPermitStore() } });
      let rateLimited = 0;
      admin.on('rateLimited', () => (rateLimited += 1));
      const report = await runWorkload(admin, { operations: 1_000, lanes: 3 });
      expect(report.unexplainedFailures).toEqual({});
      expect(rateLimited).toBe(0);
      expect(simulator.stats().rateLimited).toEqual({ mutations: 0, queries: 0 });
      expect(simulator.stats().requests.mutations).toBe(1_000);
      expect(Object.values(report.calls).reduce((sum, count) => sum + count, 0)).toBe(1_000);
      // 333 calls per lane: 2 to set up, 8 per cycle; cycle 25 grants a deleted member, cycle 40 renews the meetings.
      expect(report.expectedFailures).toEqual({ 'grantCoupon ENROLLMENT-002': 3 });
      expect(report.calls).toMatchObject({ bulkCancelMeetings: 3, bulkCreateMeetings: 6, createCoupon: 3 });
      expect(Object.keys(report.calls).sort()).toEqual(
        ['bulkCancelMeetings', 'bulkCreateMeetings', 'createCoupon', 'enrollStudent', 'grantCoupon', 'rateMeeting', 'removeStudent', 'rescheduleStudent', 'revokeCouponGrant', 'updateCoupon', 'updateMeeting'].sort(),
      );
    } finally {
      await server.close();
    }
  }, 60_000); // at least 5 s by construction (1,000 calls at 200/s); slower when the machine is shared
});
