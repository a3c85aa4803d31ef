import { describe, expect, it } from 'vitest';
import { AdminClient, InvalidInputError, MemoryPermitStore, type AcquireRequest, type Logger, type Priority, type WaitingEvent } from '../../src/index.js';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail, type MockServer } from '../../src/testing/index.js';
import { useDemoServers } from '../support/demo-server.js';

const LIMIT = 2;
const WINDOW_MS = 400;
const startDemoServer = useDemoServers();

function startServer(limit = LIMIT): Promise<MockServer> {
  return startDemoServer({
    limits: { mutations: { limit, windowMs: WINDOW_MS }, queries: { limit, windowMs: WINDOW_MS } },
    latency: { beforeArrivalMs: () => 1 + Math.random() * 5, afterHandlingMs: () => 1 + Math.random() * 5 },
  });
}

/** A memory store that records the lane of every request for a permit. */
class LaneRecordingStore extends MemoryPermitStore {
  readonly lanes: (Priority | undefined)[] = [];

  override tryAcquire(request: AcquireRequest) {
    this.lanes.push(request.lane);
    return super.tryAcquire(request);
  }

  /** Calls made at once ask together: one lane per permit asked for. */
  override async tryAcquireMany(request: AcquireRequest, count: number) {
    const results = await super.tryAcquireMany(request, count);
    for (const _ of results) this.lanes.push(request.lane);
    return results;
  }

  /** The lanes recorded since the last call. */
  take(): (Priority | undefined)[] {
    return this.lanes.splice(0);
  }
}

function client(url: string, store: MemoryPermitStore, overrides: { limit?: number; waitingThresholdMs?: number; logger?: Logger } = {}): AdminClient {
  return new AdminClient({
    apiKey: DEMO_API_KEY,
    baseUrl: url,
    limits: { mutations: { limit: overrides.limit ?? 50, windowMs: WINDOW_MS }, queries: { limit: 50, windowMs: WINDOW_MS }, store, ...(overrides.waitingThresholdMs === undefined ? {} : { waitingThresholdMs: overrides.waitingThresholdMs }) },
    ...(overrides.logger === undefined ? {} : { logger: overrides.logger, logLevel: 'debug' as const }),
  });
}

const member = (n: number) => ({ email: demoMemberEmail(300 + n) });
const slot = (hour: number) => ({ startedAt: new Date(Date.UTC(2031, 0, 6, hour)), endedAt: new Date(Date.UTC(2031, 0, 6, hour + 1)), maxAttendeeCapacity: 2, hostingType: 'live_session' as const });

describe('priority defaults: "single method calls are interactive; grantCouponToMany, chunked bulk calls and the CLI\'s jobs are background"', () => {
  it('each entry point waits in its documented lane, and an explicit priority wins', async () => {
    const { url } = await startServer(100);
    const store = new LaneRecordingStore();
    const admin = client(url, store);
    await admin.updateCoupon(DEMO_IDS.restrictedCouponId, { name: 'Spring' });
    expect(store.take()).toEqual(['interactive']);
    await admin.request('query { __typename }');
    expect(store.take()).toEqual(['interactive']);
    await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, [member(1), member(2), member(3)]);
    expect(store.take()).toEqual(['background', 'background', 'background']);
    // Bulk calls are background whether or not they are split into chunks (the CLI sends both kinds).
    await new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: url, bulkChunkSize: 2, limits: { store } }).bulkCreateMeetings(DEMO_IDS.defaultModeServiceId, [slot(9), slot(10), slot(11)]);
    expect(store.take()).toEqual(['background', 'background']);
    await admin.bulkCancelMeetings(['no-such-meeting']);
    expect(store.take()).toEqual(['background']);
    await admin.grantCoupon(DEMO_IDS.restrictedCouponId, member(4), { priority: 'background' });
    await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, [member(5)], { priority: 'interactive' });
    await admin.bulkCancelMeetings(['no-such-meeting'], { priority: 'interactive' });
    expect(store.take()).toEqual(['background', 'interactive', 'interactive']);
  });

  it('an unknown priority is refused before anything is sent', async () => {
    const { url, simulator } = await startServer(100);
    const admin = client(url, new MemoryPermitStore());
    const error = await admin.updateCoupon(DEMO_IDS.restrictedCouponId, { name: 'x' }, { priority: 'urgent' as Priority }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect(error).toMatchObject({ field: 'priority' });
    await expect(admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, [member(1)], { priority: 'soon' as Priority })).rejects.toMatchObject({ field: 'priority' });
    expect(simulator.stats().requests.mutations).toBe(0);
  });
});

describe('lanes through the client: "an interactive call overtakes every queued background call"', () => {
  it('an updateCoupon called while grantCouponToMany has grants queued is sent before all of them', async () => {
    const { url } = await startServer();
    const admin = client(url, new MemoryPermitStore(), { limit: LIMIT });
    const sent: string[] = [];
    let grantsSent = 0;
    let interactive: Promise<unknown> | undefined;
    admin.on('request', (event) => {
      sent.push(event.operation);
      if (event.operation === 'grantCoupon') grantsSent += 1;
      // Both slots taken and six grants queued behind them: now an interactive call arrives.
      if (grantsSent === LIMIT && interactive === undefined) {
        interactive = new Promise((resolve) => setTimeout(resolve, 10)).then(() => admin.updateCoupon(DEMO_IDS.restrictedCouponId, { name: 'Now' }));
      }
    });
    const members = Array.from({ length: 8 }, (_, index) => member(index + 1));
    const summary = await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, members, { concurrency: 8 });
    await interactive;
    expect(summary.counts.created + summary.counts.already_granted).toBe(8);
    expect(sent.slice(0, LIMIT + 1)).toEqual(['grantCoupon', 'grantCoupon', 'updateCoupon']);
  });
});

describe('visible waiting: "an event when a call waits for a permit longer than a threshold, reported by the logger"', () => {
  it("emits 'waiting' with the operation, its lane, how long so far and why, and logs it without the key or variables", async () => {
    const { url } = await startServer();
    const lines: { level: string; message: string; data?: Record<string, unknown> }[] = [];
    const record = (level: string) => (message: string, data?: Record<string, unknown>) => void lines.push({ level, message, ...(data === undefined ? {} : { data }) });
    const logger: Logger = { debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
    const admin = client(url, new MemoryPermitStore(), { limit: 1, waitingThresholdMs: 50, logger });
    const events: WaitingEvent[] = [];
    admin.on('waiting', (event) => events.push(event));
    await Promise.all([admin.grantCoupon(DEMO_IDS.restrictedCouponId, member(1)), admin.grantCoupon(DEMO_IDS.restrictedCouponId, member(2), { priority: 'background' })]);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ operation: 'grantCoupon', operationType: 'mutations', priority: 'background', reason: 'budget' });
    expect(events[0]?.waitedMs).toBeGreaterThanOrEqual(50);
    expect(events[0]?.expectedMs).toBeGreaterThanOrEqual(0);
    const waits = lines.filter((line) => line.message.includes('has waited'));
    expect(waits).toHaveLength(1);
    expect(waits[0]?.level).toBe('debug'); // background work waits by design; interactive waits log at info
    const text = JSON.stringify(lines);
    expect(text).not.toContain(DEMO_API_KEY);
    expect(text).not.toContain(demoMemberEmail(302));
  });

  it('an interactive call that waits logs at info', async () => {
    const { url } = await startServer();
    const infos: string[] = [];
    const logger: Logger = { debug: () => undefined, info: (message) => void infos.push(message), warn: () => undefined, error: () => undefined };
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: url, logger, limits: { mutations: { limit: 1, windowMs: WINDOW_MS }, store: new MemoryPermitStore(), waitingThresholdMs: 50 } });
    await Promise.all([admin.grantCoupon(DEMO_IDS.restrictedCouponId, member(1)), admin.grantCoupon(DEMO_IDS.restrictedCouponId, member(2))]);
    expect(infos.filter((line) => /grantCoupon \[call_[0-9a-z_]+\] \(interactive\) has waited/.test(line))).toHaveLength(1);
  });
});
