import { describe, expect, it } from 'vitest';
import { AdminClient, MemoryPermitStore, type WaitingEvent } from '../../src/index.js';
import { parseList, readStatedBudget } from '../../src/response/stated-budget.js';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';
import { useDemoServers } from '../support/demo-server.js';

const startDemoServer = useDemoServers();
const stated = (fields: Record<string, string>) => readStatedBudget(new Headers(fields));
const members = (count: number, from = 300) => Array.from({ length: count }, (_, index) => ({ email: demoMemberEmail(from + index) }));

describe('Structured Field lists (RFC 9651), as the RateLimit fields use them', () => {
  it('reads items and their parameters as text: strings, tokens, integers, decimals, booleans and byte sequences', () => {
    expect(parseList('"burst";q=100;w=60, "daily";q=1000;w=86400')).toEqual([
      ['"burst"', { q: '100', w: '60' }],
      ['"daily"', { q: '1000', w: '86400' }],
    ]);
    expect(parseList('default;pk=:cHsdsRa894==:;flag;x=?0;d=1.5;s="a, b;c"')).toEqual([['default', { pk: ':cHsdsRa894==:', flag: '?1', x: '?0', d: '1.5', s: '"a, b;c"' }]]);
    expect(parseList('60')).toEqual([['60', {}]]);
    expect(parseList('')).toEqual([]);
    expect(parseList(null)).toBeUndefined();
  });

  it.each([
    ['an unterminated string', '"burst;q=100'],
    ['a trailing comma', '"a";q=1,'],
    ['an inner list', '("a" "b");q=1'],
    ['a space before a parameter', '"a" ;q=1'],
    ['an upper-case key', '"a";Q=1'],
    ['a parameter without a value after =', '"a";q='],
    ['a control character in a string', '"a\u0007"'],
    ['two items without a comma', '"a" "b"'],
    ['a string with an escape (not read: ignored)', '"a\\"b";q=1'],
  ])('refuses %s', (_what, field) => {
    expect(parseList(field)).toBeUndefined();
  });
});

describe('the budget a server states on an answer (issue 27: "X-RateLimit-Limit together with a window it states, or the IETF RateLimit headers")', () => {
  it('RateLimit-Policy: its quota and window; the policy the RateLimit field names when there are several', () => {
    expect(stated({ 'RateLimit-Policy': '"default";q=60;w=10' })).toEqual({ limit: 60, windowMs: 10_000 });
    expect(stated({ 'RateLimit-Policy': '"permin";q=50;w=60, "perhr";q=1000;w=3600', RateLimit: '"perhr";r=999;t=3000' })).toEqual({ limit: 1000, windowMs: 3_600_000 });
    expect(stated({ 'RateLimit-Policy': '"peruser";q=100;w=60;pk=:cHsdsRa894==:', RateLimit: 'not a list,' })).toEqual({ limit: 100, windowMs: 60_000 });
    expect(stated({ 'RateLimit-Policy': '"default";q=60;qu="requests";w=10' })).toEqual({ limit: 60, windowMs: 10_000 });
  });

  it('X-RateLimit-Limit with a window it states: its w parameter, or X-RateLimit-Window in seconds', () => {
    expect(stated({ 'X-RateLimit-Limit': '60;w=10' })).toEqual({ limit: 60, windowMs: 10_000 });
    expect(stated({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Window': '10' })).toEqual({ limit: 60, windowMs: 10_000 });
  });

  it('a limit without a window states no budget (the spec\'s 429 sends that; its own path reads the limit)', () => {
    expect(stated({ 'X-RateLimit-Limit': '60' })).toBeUndefined();
    expect(stated({ RateLimit: '"default";r=5;t=10' })).toBeUndefined();
    expect(stated({})).toBeUndefined();
  });

  it.each([
    ['a quota of 0', { 'RateLimit-Policy': '"d";q=0;w=10' }],
    ['a negative quota', { 'RateLimit-Policy': '"d";q=-5;w=10' }],
    ['a decimal quota', { 'RateLimit-Policy': '"d";q=60.5;w=10' }],
    ['a quota as a string', { 'RateLimit-Policy': '"d";q="60";w=10' }],
    ['no quota', { 'RateLimit-Policy': '"d";w=10' }],
    ['no window', { 'RateLimit-Policy': '"d";q=60' }],
    ['a window of 0', { 'RateLimit-Policy': '"d";q=60;w=0' }],
    ['a decimal window', { 'RateLimit-Policy': '"d";q=60;w=10.0' }],
    ['a window over a day', { 'RateLimit-Policy': '"d";q=60;w=86401' }],
    ['a quota over a million per window (a hostile raise)', { 'RateLimit-Policy': '"d";q=999999999999999;w=1' }],
    ['another quota unit', { 'RateLimit-Policy': '"d";q=65535;qu="content-bytes";w=10' }],
    ['several policies, none named', { 'RateLimit-Policy': '"a";q=50;w=60, "b";q=1000;w=3600' }],
    ['a policy field that is no list', { 'RateLimit-Policy': 'q=60; w=10' }],
    ['an empty policy field', { 'RateLimit-Policy': '' }],
    ['a limit that is no integer', { 'X-RateLimit-Limit': 'lots', 'X-RateLimit-Window': '10' }],
    ['a window with a unit', { 'X-RateLimit-Limit': '60', 'X-RateLimit-Window': '10s' }],
    ['a negative window', { 'X-RateLimit-Limit': '60', 'X-RateLimit-Window': '-10' }],
    ['a limit past the safe integers', { 'X-RateLimit-Limit': '99999999999999999999', 'X-RateLimit-Window': '10' }],
    ['a window of 16 digits', { 'RateLimit-Policy': '"d";q=60;w=1234567890123456' }],
    ['a quota inside a string', { 'RateLimit-Policy': '"d;q=60;w=10"' }],
  ])('ignores %s, saying why', (_what, fields) => {
    expect(stated(fields)).toEqual(expect.any(String));
  });
});

describe('a budget stated on ordinary answers is used: "never probe, use a larger budget only when stated"', () => {
  /** A self-hosted server that states its budget on every answer. */
  const statingServer = (limit: number, windowMs: number) =>
    startDemoServer({ limits: { mutations: { limit, windowMs } }, rateLimitHeaders: 'every-answer', latency: { beforeArrivalMs: () => 2, afterHandlingMs: () => 2 } });

  it('a raise: a default client (200 per minute assumed) paces at the 400 per 2 s the server states, without a 429', async () => {
    const server = await statingServer(400, 2_000);
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { store: new MemoryPermitStore() } });
    const started = Date.now();
    // 500 grants: 400 at once, 100 when the window frees. At the assumed 200 per minute, over two minutes.
    const summary = await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, members(500, 1), { signal: AbortSignal.timeout(50_000) });
    expect(summary.interrupted).toBe(false);
    expect(summary.rows).toBe(500);
    expect(Date.now() - started).toBeLessThan(50_000);
    expect(server.simulator.stats().rateLimited.mutations).toBe(0);
  }, 60_000);

  it('a configured limit is a ceiling the stated budget never raises', async () => {
    const server = await statingServer(100, 1_000);
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { mutations: { limit: 30, windowMs: 1_000 }, store: new MemoryPermitStore() } });
    const sentAt: number[] = [];
    admin.on('request', () => sentAt.push(performance.now()));
    await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, members(90, 100));
    const mostInAWindow = Math.max(...sentAt.map((at) => sentAt.filter((other) => other >= at && other < at + 1_000).length));
    expect(mostInAWindow).toBeLessThanOrEqual(30);
  });

  it('the stated window is exact, in whole seconds: the waiting event gives the server\'s figures', async () => {
    const server = await statingServer(20, 1_000);
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { store: new MemoryPermitStore(), waitingThresholdMs: 0 } });
    await admin.updateCoupon(DEMO_IDS.restrictedCouponId, { name: 'Stated' });
    const waits: WaitingEvent[] = [];
    admin.on('waiting', (event) => waits.push(event));
    await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, members(30, 100));
    expect(waits.at(-1)?.budget).toEqual({ limit: 20, windowMs: 1_000, source: 'server' });
    expect(server.simulator.stats().rateLimited.mutations).toBe(0);
  });

  it('a window revealed by 429s alone is not a whole number of seconds: an estimate from whole-second hints', async () => {
    const server = await startDemoServer({ limits: { mutations: { limit: 20, windowMs: 1_000 } }, latency: { beforeArrivalMs: () => 2, afterHandlingMs: () => 2 } });
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { store: new MemoryPermitStore(), waitingThresholdMs: 0 }, maxRetries: 10 });
    const waits: WaitingEvent[] = [];
    admin.on('waiting', (event) => waits.push(event));
    await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, members(60, 100), { concurrency: 40 });
    expect(waits.at(-1)?.budget).toMatchObject({ limit: 20, source: 'server' });
    expect((waits.at(-1)?.budget?.windowMs ?? 0) % 1000).not.toBe(0);
  });

  it('malformed and hostile values are ignored with a debug line: no error, no raise', async () => {
    const lines: string[] = [];
    const logger = { debug: (line: string) => void lines.push(line), info: () => {}, warn: () => {}, error: () => {} };
    const answer = { data: { updateCoupon: { coupon: null, errors: [{ code: 'COUPON-001', message: 'not found' }] } } };
    const fetch = async () => new Response(JSON.stringify(answer), { status: 200, headers: { 'content-type': 'application/json', 'RateLimit-Policy': '"d";q=999999999999999;w=1' } });
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: 'https://school.example', fetch, logger, logLevel: 'debug', limits: { mutations: { limit: 2, windowMs: 60_000 }, store: new MemoryPermitStore(), waitingThresholdMs: 0 } });
    const waits: WaitingEvent[] = [];
    admin.on('waiting', (event) => waits.push(event));
    await admin.updateCoupon(DEMO_IDS.restrictedCouponId, { name: 'A' }).catch(() => undefined);
    await admin.updateCoupon(DEMO_IDS.restrictedCouponId, { name: 'B' }).catch(() => undefined);
    expect(lines).toContainEqual(expect.stringMatching(/ignored the mutations budget stated in RateLimit-Policy/));
    // The third call waits under the configured 2 per minute: nothing raised it.
    const third = admin.updateCoupon(DEMO_IDS.restrictedCouponId, { name: 'C' }, { signal: AbortSignal.timeout(300) });
    await expect(third).rejects.toThrow();
    expect(waits[0]?.budget).toEqual({ limit: 2, windowMs: 60_000, source: 'configured' });
  });
});
