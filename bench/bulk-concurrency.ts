/**
 * Does the bounded default concurrency of `grantCouponToMany` (64 grants in flight) still reach the
 * rate-limit budget? A real AdminClient (real limiter, the spec's 200 mutations per window) grants
 * through a fake slow transport: a `fetch` that answers each grant a fixed round trip after it was
 * sent, no network. Time is scaled 1:20 (a 3 s window stands for the spec's minute; a 150 ms round
 * trip for 3 s), so each run takes seconds. For each round trip the job runs at the default
 * concurrency and with a full burst (200 in flight, the old default), and prints the duration, how
 * much longer the default took, the most grants in flight and the most sent within any window. The
 * budget is reached when every window is full (200) and the default is later than the burst only
 * by the ramp of the first window: 64 in flight send its 200 in 4 round trips, a burst in one.
 *
 * Run: npm run bench:bulk-concurrency
 */
import { AdminClient, MemoryPermitStore } from '../src/index.js';
import { GRANT_TO_MANY_DEFAULTS } from '../src/workflows/grant-to-many.js';

const SCALE = 20;
const WINDOW_MS = 60_000 / SCALE;
const LIMIT = 200;
const GRANTS = 800;
/** Round trips in the spec's time (ms); each is run scaled. */
const ROUND_TRIPS = [300, 3_000, 10_000, 19_000];

const answer = JSON.stringify({
  data: { createCouponGrant: { grant: { id: 'grant-1', status: 'granted', userName: null, userEmail: null, grantedByName: null, grantedAt: 1_790_000_000, redeemedAt: null, revokedAt: null }, created: true, errors: null } },
});

interface Run {
  durationMs: number;
  maxInFlight: number;
  busiestWindow: number;
}

async function run(roundTripMs: number, concurrency: number | undefined): Promise<Run> {
  const sentAt: number[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const fetch: typeof globalThis.fetch = async () => {
    sentAt.push(performance.now());
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, roundTripMs));
    inFlight -= 1;
    return new Response(answer, { headers: { 'content-type': 'application/json' } });
  };
  const admin = new AdminClient({
    apiKey: 'sk_live_bench_concurrency',
    baseUrl: 'https://school.example',
    fetch,
    limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS }, store: new MemoryPermitStore() },
  });
  const members = Array.from({ length: GRANTS }, (_, n) => ({ email: `member-${n}@example.com` }));
  const started = performance.now();
  await admin.grantCouponToMany('coupon-1', members, concurrency === undefined ? {} : { concurrency });
  const durationMs = performance.now() - started;
  let busiestWindow = 0;
  for (let first = 0, last = 0; last < sentAt.length; last += 1) {
    while ((sentAt[last] as number) - (sentAt[first] as number) >= WINDOW_MS) first += 1;
    busiestWindow = Math.max(busiestWindow, last - first + 1);
  }
  return { durationMs, maxInFlight, busiestWindow };
}

const seconds = (ms: number): string => `${((ms * SCALE) / 1000).toFixed(0)} s`;
console.log(`grantCouponToMany, ${GRANTS} grants, budget ${LIMIT} per minute, time scaled 1:${SCALE} (figures below in the spec's time)`);
const DEFAULT = GRANT_TO_MANY_DEFAULTS.concurrency;
console.log(`default concurrency: ${DEFAULT}; Little's law: ${DEFAULT} in flight sustain ${LIMIT}/min for round trips up to ${((DEFAULT * 60) / LIMIT).toFixed(1)} s`);
console.log('| round trip | duration at 64 (default) | at 200 (a full burst) | 64 later by | most in flight (64 / burst) | most sent in any minute (64 / burst) |');
console.log('|---|---|---|---|---|---|');
for (const roundTrip of ROUND_TRIPS) {
  const bounded = await run(roundTrip / SCALE, undefined);
  const burst = await run(roundTrip / SCALE, LIMIT);
  const later = bounded.durationMs - burst.durationMs;
  console.log(
    `| ${roundTrip / 1000} s | ${seconds(bounded.durationMs)} | ${seconds(burst.durationMs)} | ${seconds(later)} (${((later * SCALE) / roundTrip).toFixed(1)} round trips) | ${bounded.maxInFlight} / ${burst.maxInFlight} | ${bounded.busiestWindow} / ${burst.busiestWindow} |`,
  );
}
