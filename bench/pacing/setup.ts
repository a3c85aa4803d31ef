import {
  createSimulator,
  DEMO_API_KEY,
  DEMO_DELETED_MEMBER_NUMBERS,
  DEMO_IDS,
  DEMO_MEMBER_COUNT,
  demoMemberEmail,
  seedDemoSchool,
  startMockServer,
  type MockServer,
} from '../../src/testing/index.js';

/** The scaled budget of the benchmark: the server and our client agree on it. */
export const LIMIT = 50;
export const WINDOW_MS = 3_000;

/**
 * Heavy-tailed latency: log-normal around 8 ms, with a 1 % chance of a 100-300 ms stall, drawn
 * separately for the way in (before the server counts the arrival) and the way out.
 */
export function heavyTailLatencyMs(): number {
  if (Math.random() < 0.01) return 100 + Math.random() * 200;
  const normal = Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
  return Math.min(250, 8 * Math.exp(0.8 * normal));
}

/** A fresh simulator (fresh windows) with the scaled limits, served on loopback. */
export async function startBenchServer(): Promise<MockServer> {
  const rule = { limit: LIMIT, windowMs: WINDOW_MS };
  const simulator = createSimulator({
    limits: { mutations: rule, queries: rule },
    latency: { beforeArrivalMs: heavyTailLatencyMs, afterHandlingMs: heavyTailLatencyMs },
    requestLogSize: 100_000,
  });
  seedDemoSchool(simulator);
  return startMockServer({ simulator });
}

const deleted = new Set<number>(DEMO_DELETED_MEMBER_NUMBERS);
/** Emails of the demo school's live members, cycled: grants are idempotent, every call still counts. */
export function memberEmail(index: number): string {
  const live = Array.from({ length: DEMO_MEMBER_COUNT }, (_, n) => n + 1).filter((n) => !deleted.has(n));
  return demoMemberEmail(live[index % live.length] as number);
}

export const COUPON_ID = DEMO_IDS.restrictedCouponId;
export const API_KEY = DEMO_API_KEY;

/** The least time `count` mutations can take under the limit: the last batch cannot start before ceil(count/limit)-1 windows, plus one round trip. */
export function theoreticalMinimumMs(count: number, budgetShare: number, roundTripMs: number): number {
  return (Math.ceil(count / (LIMIT * budgetShare)) - 1) * WINDOW_MS + roundTripMs;
}
