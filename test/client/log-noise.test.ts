import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, MemoryPermitStore, type ClientEventMap, type Logger } from '../../src/index.js';
import { createSimulator, DEMO_API_KEY, DEMO_IDS, demoMemberEmail, seedDemoSchool, startMockServer, type MockServer } from '../../src/testing/index.js';
import { refusedPort } from '../support/refused-port.js';

/*
 * Issue 30, point 6: one pause after a burst of 429s gave one `warn` line per call (20 for one
 * pause), and event times came unrounded (`waitedMs: 1000.382823`).
 */

/** A server allowing 5 mutations per second, which the client does not know: a burst of 20 meets 15 429s. */
const SERVER_BUDGET = { limit: 5, windowMs: 1_000 };
const BURST = 20;

let server: MockServer;
beforeAll(async () => {
  const simulator = createSimulator({ limits: { mutations: SERVER_BUDGET } });
  seedDemoSchool(simulator);
  server = await startMockServer({ simulator });
});
afterAll(() => server.close());

interface Line {
  level: keyof Logger;
  message: string;
  data: Record<string, unknown> | undefined;
}

function capture(lines: Line[]): Logger {
  const at = (level: keyof Logger) => (message: string, data?: Record<string, unknown>) => lines.push({ level, message, data });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

type AnyEvent = { name: keyof ClientEventMap; event: ClientEventMap[keyof ClientEventMap] };

function record(admin: AdminClient): AnyEvent[] {
  const events: AnyEvent[] = [];
  for (const name of ['request', 'response', 'rateLimited', 'waiting', 'retry'] as const) admin.on(name, (event) => events.push({ name, event }));
  return events;
}

/** 20 grants at once (members 101-120 of the demo school); resolves when all are granted. */
async function burst(admin: AdminClient, from: number): Promise<void> {
  const grants = Array.from({ length: BURST }, (_, index) => admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(from + index) }));
  const results = await Promise.all(grants);
  expect(results.every((result) => result.created)).toBe(true);
}

describe('"the logger should say [a 429 pause] once per pause with the count, while per-call events stay" (issue 30)', () => {
  it('a burst of 20 meeting 15 429s: 15 rateLimited events, one warn line for their pause, naming 15 calls and the first one', { timeout: 30_000 }, async () => {
    const lines: Line[] = [];
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, logger: capture(lines), logLevel: 'warn', limits: { store: new MemoryPermitStore() } });
    const events = record(admin);
    await burst(admin, 101);

    const limited = events.filter(({ name }) => name === 'rateLimited').map(({ event }) => event as ClientEventMap['rateLimited']);
    expect(limited.length).toBeGreaterThanOrEqual(BURST - SERVER_BUDGET.limit);
    const warns = lines.filter((line) => line.level === 'warn');
    // One pause (the client then paces at the budget the 429s revealed), one line counting its 429s.
    expect(warns).toHaveLength(1);
    const first = limited[0];
    expect(warns[0]?.message).toBe(
      `school-admin-sdk: mutations rate limit hit (429) by ${limited.length} call(s), first grantCoupon [${first?.callId}] (attempt 1); pausing ${first?.waitMs} ms`,
    );
    expect(warns[0]?.data).toMatchObject({ callId: first?.callId, operationType: 'mutations', calls: limited.length });
  });
});

describe('"Event times ... whole milliseconds" (issue 30)', () => {
  it('waitedMs, expectedMs, durationMs and waitMs of every event are integers: waits for a permit, a 429 pause, a retry after a refused connection', { timeout: 30_000 }, async () => {
    const paced = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { store: new MemoryPermitStore(), waitingThresholdMs: 20 } });
    const pacedEvents = record(paced);
    await burst(paced, 201);
    const refused = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: `http://127.0.0.1:${await refusedPort()}`, maxRetries: 2, retryBaseDelayMs: 40, maxRetryDelayMs: 80, limits: { waitingThresholdMs: 20 } });
    const refusedEvents = record(refused);
    await refused.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(300) }).catch(() => undefined);

    const all = [...pacedEvents, ...refusedEvents];
    const times = all.flatMap(({ name, event }) =>
      Object.entries(event).filter(([field, value]) => field.endsWith('Ms') && value !== undefined).map(([field, value]) => ({ name, field, value: value as number })),
    );
    // Every kind of timed event was seen, so the check below cannot pass on silence.
    expect(new Set(times.map(({ name, field }) => `${name}.${field}`))).toEqual(
      new Set(['response.durationMs', 'rateLimited.waitMs', 'waiting.waitedMs', 'waiting.expectedMs']),
    );
    expect([...new Set(all.filter(({ name }) => name === 'waiting').map(({ event }) => (event as ClientEventMap['waiting']).reason))]).toEqual(expect.arrayContaining(['paused', 'unreachable']));
    expect(times.filter(({ value }) => !Number.isInteger(value))).toEqual([]);
  });
});
