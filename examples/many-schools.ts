/**
 * One process serving many schools: one AdminClient per school's key, all made up front and kept
 * (a client costs under 2 KB of heap when idle). Every key has its own budget, and the clients of a
 * process share one memory store (the default), so one school's burst never takes another's slots.
 * Here 20 schools each grant a coupon to 30 members at once, over a budget of 20 per window: every
 * school's job waits one window of its own, and the server sees no key over its budget.
 *
 * Run: npx tsx examples/many-schools.ts   (the simulator only: it needs one key per school)
 */
import { AdminClient } from '../src/index.js';
import { createSimulator, startMockServer } from '../src/testing/index.js';
import { step } from './support/report.js';

const SCHOOLS = 20;
const MEMBERS_PER_SCHOOL = 30;
// A self-hosted budget, scaled down so the example finishes in seconds (the API's is 200 per 60 s).
const budget = { limit: 20, windowMs: 2_000 };

const simulator = createSimulator({ limits: { mutations: budget, queries: { limit: 600, windowMs: 2_000 } }, requestLogSize: SCHOOLS * MEMBERS_PER_SCHOOL * 2 });
const schools = Array.from({ length: SCHOOLS }, (_, index) => {
  const seeder = simulator.addSchool({ name: `School ${index + 1}` });
  const members = seeder.addMembers(MEMBERS_PER_SCHOOL, (member) => ({ email: `member${member + 1}@school${index + 1}.example` }));
  const coupon = seeder.addCoupon({ restricted: true });
  return { apiKey: seeder.addApiKey(), couponId: coupon.id, emails: members.map((member) => member.email) };
});
const server = await startMockServer({ simulator });

try {
  // One client per key, kept for the life of the process (your app would look it up by school).
  const clients = await step(`Make one client per school (${SCHOOLS} keys)`, async () => {
    const made = new Map(schools.map((school) => [school.apiKey, new AdminClient({ apiKey: school.apiKey, baseUrl: server.url, limits: { mutations: budget } })]));
    return { value: made, line: `${made.size} clients, one memory store shared by all (no option needed)` };
  });

  await step(`Every school grants its coupon to ${MEMBERS_PER_SCHOOL} members, all schools at once`, async () => {
    const started = performance.now();
    const jobs = await Promise.all(
      schools.map(async (school) => {
        const admin = clients.get(school.apiKey) as AdminClient;
        const results = await Promise.all(school.emails.map((email) => admin.grantCoupon(school.couponId, { email })));
        return { created: results.filter((result) => result.created).length, doneMs: performance.now() - started };
      }),
    );
    const created = jobs.reduce((sum, job) => sum + job.created, 0);
    const slowest = Math.max(...jobs.map((job) => job.doneMs));
    const fastest = Math.min(...jobs.map((job) => job.doneMs));
    return { value: jobs, line: `${created} grants created; each school done in ${(fastest / 1000).toFixed(1)}-${(slowest / 1000).toFixed(1)} s (the last 10 of each wait a window of ${budget.windowMs / 1000} s)` };
  });

  await step('What the server saw, key by key', async () => {
    const log = simulator.requestLog().filter((entry) => entry.operationType === 'mutations');
    const byKey = new Map<string | null, number[]>();
    for (const entry of log) byKey.set(entry.apiKeyId, [...(byKey.get(entry.apiKeyId) ?? []), entry.arrivedAt]);
    // The most requests of one key that arrived within any window (the server's sliding window).
    let busiest = 0;
    for (const arrivals of byKey.values()) {
      const times = arrivals.sort((a, b) => a - b);
      for (let index = 0, from = 0; index < times.length; index += 1) {
        while ((times[index] as number) - (times[from] as number) >= budget.windowMs) from += 1;
        busiest = Math.max(busiest, index - from + 1);
      }
    }
    const refused = log.filter((entry) => entry.status === 429).length;
    if (refused > 0 || busiest > budget.limit) throw new Error(`Failed the example: ${refused} answers 429, up to ${busiest} requests of one key in a window (budget ${budget.limit}).`);
    return { value: undefined, line: `${byKey.size} keys, ${log.length} mutations, 429 answers: ${refused}; the most of one key in any ${budget.windowMs / 1000} s: ${busiest} (budget ${budget.limit})` };
  });
} finally {
  await server.close();
}
