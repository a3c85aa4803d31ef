import { createSimulator, DEMO_IDS, seedDemoSchool, startMockServer, type MockServer } from '../../src/testing/index.js';

/** The issue's scaled budget: 50 mutations per 3 s, strict sliding window, every arrival counted. */
export const LIMIT = 50;
export const WINDOW_MS = 3_000;
/** Bulk grants per run, and one interactive call every this many ms while they run. */
export const BULK_CALLS = 500;
export const INTERACTIVE_EVERY_MS = 500;

/** Latency drawn uniformly from 5-80 ms, separately on the way in and out (median round trip ~85 ms). */
export function uniformLatencyMs(): number {
  return 5 + Math.random() * 75;
}

/**
 * What the QoS server tells its bench: where it listens, the meeting interactive calls enroll
 * into, and a second key of the school, whose budget is its own, for warming a client process up.
 */
export interface QosServerHello {
  url: string;
  meetingId: string;
  warmKey: string;
}

/** A mutation budget of the server (and of the client told about it): `limit` per sliding `windowMs`. */
export interface Budget {
  limit: number;
  windowMs: number;
}

/** The issue 13 budget: 50 per 3 s. */
export const ISSUE_13_BUDGET: Budget = { limit: LIMIT, windowMs: WINDOW_MS };

/**
 * A fresh simulator with the given mutation budget (issue 13's by default) and an open meeting
 * without capacity limit, on loopback; with `'every-answer'` it states its budget on every answer.
 */
export async function startQosServer(rule: Budget = ISSUE_13_BUDGET, rateLimitHeaders: 'on-429' | 'every-answer' = 'on-429'): Promise<{ server: MockServer; meetingId: string; warmKey: string }> {
  const simulator = createSimulator({
    rateLimitHeaders,
    limits: { mutations: rule, queries: { limit: 10_000, windowMs: rule.windowMs } },
    latency: { beforeArrivalMs: uniformLatencyMs, afterHandlingMs: uniformLatencyMs },
    requestLogSize: 100_000,
  });
  const { seeder } = seedDemoSchool(simulator);
  const day = 86_400;
  const startedAt = Math.floor(simulator.clock.now() / 1000) + 7 * day;
  const meeting = seeder.addMeeting({
    serviceId: DEMO_IDS.defaultModeServiceId,
    startedAt,
    endedAt: startedAt + 3_600,
    hostUserId: DEMO_IDS.teachingAssistantIds[0],
    hostingType: 'live_session',
    maxAttendeeCapacity: 0,
  });
  return { server: await startMockServer({ simulator }), meetingId: meeting.id, warmKey: seeder.addApiKey() };
}

/**
 * The least time under the permit rule for `count` mutations against `budget` (issue 13's by
 * default): each slot serves one request per round trip plus a window (a request counts until a
 * window after its answer), so the last of ceil(count / limit) rounds starts
 * (rounds - 1) x (window + round trip) in and ends a round trip later.
 */
export function safeBoundMs(count: number, roundTripMs: number, budget: Budget = ISSUE_13_BUDGET): number {
  return (Math.ceil(count / budget.limit) - 1) * (budget.windowMs + roundTripMs) + roundTripMs;
}

/**
 * {@link safeBoundMs} when slots are still counted at the start: one slot each until
 * `busyUntilMs` (ms after the start; the requests sent in the window before a job). Each slot
 * serves its requests a window and a round trip apart from when it frees.
 */
export function safeBoundAfterMs(count: number, roundTripMs: number, budget: Budget, busyUntilMs: readonly number[]): number {
  const busy = busyUntilMs.map((until) => Math.max(0, until));
  const slots = [...busy, ...new Array<number>(Math.max(0, budget.limit - busy.length)).fill(0)].sort((a, b) => a - b).slice(-budget.limit);
  let end = 0;
  for (let index = 0; index < count; index += 1) {
    end = Math.max(end, (slots[index % budget.limit] as number) + Math.floor(index / budget.limit) * (budget.windowMs + roundTripMs) + roundTripMs);
  }
  return end;
}

/** The `p`-th percentile (nearest rank) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}
