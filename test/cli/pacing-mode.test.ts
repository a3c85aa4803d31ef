import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rateLimitHint } from '../../src/cli/commands/grant-coupon.js';
import { DEMO_API_KEY, DEMO_IDS, createSimulator, demoMemberEmail, seedDemoSchool, startMockServer } from '../../src/testing/index.js';
import { useRedisServer } from '../redis/shared-redis.js';
import { runCli } from './support/cli-process.js';
import { startGrantServer, useGrantWorkspace, writeMembersCsv } from './support/grant-server.js';

const LIMIT = 20;
const WINDOW_MS = 3_000;
const workspace = useGrantWorkspace('cli-pacing-', 2 * LIMIT, { limit: LIMIT, windowMs: WINDOW_MS });
const redis = useRedisServer();

/** Mutations the server counted before the first of them could leave its window: what the command sent at once. */
function sentAtOnce(): number {
  const arrivals = workspace.target.simulator
    .requestLog()
    .filter((entry) => entry.operationType === 'mutations')
    .map((entry) => entry.arrivedAt);
  const first = Math.min(...arrivals);
  return arrivals.filter((at) => at < first + WINDOW_MS).length;
}

describe('the bulk commands\' pacing (issue 27): "batch mode when their budget is their own, lanes with a shared store (--redis)"', () => {
  it('grant-coupon without --redis runs in batch mode: its first window takes the whole budget (the lanes kept a slot free)', { timeout: 60_000 }, async () => {
    workspace.target.simulator.resetStats();
    const csv = join(workspace.dir, 'batch.csv');
    await writeMembersCsv(csv, workspace.target.emails.slice(0, 2 * LIMIT));
    const run = await runCli(['grant-coupon', '--coupon', workspace.target.couponId, '--csv', csv, '--rate-limit', `${LIMIT}/${WINDOW_MS / 1000}s`], workspace.target.env);
    expect(run.code, run.stderr).toBe(0);
    expect(sentAtOnce()).toBe(LIMIT);
    expect(workspace.target.simulator.stats().rateLimited.mutations).toBe(0);
  });

  it('grant-coupon --redis shares the budget through Redis and keeps lanes: a slot stays free for other processes\' interactive calls', { timeout: 60_000 }, async () => {
    const target = await startGrantServer(2 * LIMIT, { limit: LIMIT, windowMs: WINDOW_MS });
    try {
      const csv = join(workspace.dir, 'lanes.csv');
      await writeMembersCsv(csv, target.emails);
      const run = await runCli(['grant-coupon', '--coupon', target.couponId, '--csv', csv, '--rate-limit', `${LIMIT}/${WINDOW_MS / 1000}s`, '--redis', redis().server.url], target.env);
      expect(run.code, run.stderr).toBe(0);
      const arrivals = target.simulator.requestLog().filter((entry) => entry.operationType === 'mutations').map((entry) => entry.arrivedAt);
      const first = Math.min(...arrivals);
      expect(arrivals.filter((at) => at < first + WINDOW_MS).length).toBeLessThan(LIMIT);
      expect(target.grantsPerEmail().size).toBe(2 * LIMIT);
    } finally {
      await target.server.close();
    }
  });

  it('--redis that cannot be reached is a usage error at once, without echoing the URL (it may hold a password)', { timeout: 30_000 }, async () => {
    const csv = join(workspace.dir, 'unreachable.csv');
    await writeMembersCsv(csv, workspace.target.emails.slice(0, 1));
    const started = Date.now();
    const run = await runCli(['grant-coupon', '--coupon', workspace.target.couponId, '--csv', csv, '--redis', 'redis://user:s3cret@127.0.0.1:9'], workspace.target.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Failed to start grant-coupon: the Redis server of --redis could not be reached \(ECONNREFUSED\)\. Check the URL/u);
    expect(run.stderr + run.stdout).not.toContain('s3cret');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it.each(['grant-coupon', 'create-slots', 'cancel-meetings'])('%s --help says which mode it runs in and offers --redis', async (command) => {
    const run = await runCli([command, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--redis <url>');
    expect(run.stdout.replace(/\s+/gu, ' ')).toContain('without --redis the command runs in batch mode (limits.interactiveReserve 0)');
  });
});

describe('the closing advice after a budget was learnt: "the window the server\'s hints best support, and when it is an estimate"', () => {
  it('a window read from whole-second hints (60 per 10 s, learnt as 10.7 s): 60/10s, said to be an estimate, with 60/11s should 429s come', () => {
    const hint = rateLimitHint({ limit: 60, windowMs: 10_700 }, undefined);
    expect(hint).toBe(
      'The server allows 60 mutations per about 10 s (its 429s told; their hints come in whole seconds, so the window is an estimate, between 9.7 and 10.7 s), not the 200 per 1m 00s this run assumed at first. Next time, pass --rate-limit 60/10s to start at its pace without those 429s (--rate-limit 60/11s if 429s still come).\n',
    );
  });

  it('a window the server stated (whole seconds): given as it is, not an estimate', () => {
    expect(rateLimitHint({ limit: 60, windowMs: 10_000 }, undefined)).toBe('The server allows 60 mutations per 10 s, not the 200 per 1m 00s this run assumed at first. Next time, pass --rate-limit 60/10s to start at its pace.\n');
  });

  it('nothing when the server\'s budget is the one the run started with', () => {
    expect(rateLimitHint({ limit: 60, windowMs: 10_000 }, { limit: 60, windowMs: 10_000 })).toBeUndefined();
    expect(rateLimitHint(undefined, undefined)).toBeUndefined();
  });

  it('grant-coupon against a server that states 20 per 2 s on every answer: the advice gives it exactly', { timeout: 60_000 }, async () => {
    const simulator = createSimulator({ limits: { mutations: { limit: 20, windowMs: 2_000 } }, rateLimitHeaders: 'every-answer' });
    seedDemoSchool(simulator);
    const server = await startMockServer({ simulator });
    try {
      const csv = join(workspace.dir, 'stated.csv');
      await writeMembersCsv(csv, Array.from({ length: 60 }, (_, index) => demoMemberEmail(300 + index)));
      const run = await runCli(['grant-coupon', '--coupon', DEMO_IDS.restrictedCouponId, '--csv', csv], { ADMIN_API_URL: server.url, ADMIN_API_KEY: DEMO_API_KEY });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('The server allows 20 mutations per 2 s, not the 200 per 1m 00s this run assumed at first. Next time, pass --rate-limit 20/2s to start at its pace.');
    } finally {
      await server.close();
    }
  });
});
