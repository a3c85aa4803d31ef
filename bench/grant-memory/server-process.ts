/**
 * The memory benchmark's server, in its own process (as a real server is, so its memory is not
 * counted): the simulator on loopback with a scaled mutation window, one school seeded through the
 * seeding API with `MEMBERS` members and a restricted coupon. Prints one JSON line
 * `{ url, apiKey, couponId }` when listening; answers `grants` on stdin with the number of active
 * grants of the coupon and the most any member holds; exits on `close`.
 */
import { createInterface } from 'node:readline';
import { createSimulator, startMockServer } from '../../src/testing/index.js';
import { benchMemberEmail, BUDGET, MEMBERS } from './setup.js';

const simulator = createSimulator({ limits: { mutations: BUDGET, queries: { limit: 600, windowMs: 60_000 } } });
const school = simulator.addSchool({ name: 'Memory bench school' });
school.addMembers(MEMBERS, (index) => ({ email: benchMemberEmail(index) }));
const coupon = school.addCoupon({ name: 'Bench coupon', restricted: true });
const apiKey = school.addApiKey();
const server = await startMockServer({ simulator });
process.stdout.write(`${JSON.stringify({ url: server.url, apiKey, couponId: coupon.id })}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'grants') {
    const perUser = new Map<string, number>();
    for (const grant of simulator.school().tables.grants.values()) {
      if (grant.couponId === coupon.id && grant.status !== 'revoked') perUser.set(grant.userId, (perUser.get(grant.userId) ?? 0) + 1);
    }
    process.stdout.write(`${JSON.stringify({ members: perUser.size, most: Math.max(0, ...perUser.values()) })}\n`);
  }
  if (line === 'close') break;
}
await server.close();
