import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../src/index.js';
import { createSimulator, DEMO_API_KEY, DEMO_IDS, demoMemberEmail, seedDemoSchool, startMockServer, type DemoSchool, type MockServer } from '../../src/testing/index.js';
import { startFaultServer } from '../reliability/support/fault-server.js';
import { runCli, startCli } from './support/cli-process.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-waits-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const WINDOW_MS = 8_000;

/**
 * A demo school whose server allows 3 mutations per 8 s, already spent by another client (as a
 * run just before, or another tool with the same key, would have): the command's first request is
 * answered 429 with a Retry-After of several seconds.
 */
async function exhaustedServer(): Promise<{ server: MockServer; demo: DemoSchool; env: Record<string, string> }> {
  const simulator = createSimulator({ limits: { mutations: { limit: 3, windowMs: WINDOW_MS }, queries: { limit: 600, windowMs: 60_000 } } });
  const demo = seedDemoSchool(simulator);
  const server = await startMockServer({ simulator });
  const other = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: false });
  for (const n of [1, 2, 3]) await other.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(n) });
  return { server, demo, env: { ADMIN_API_URL: server.url, ADMIN_API_KEY: DEMO_API_KEY } };
}

/** The server's limit, told to the command, so the pacing after the 429 takes seconds, not the default minute. */
const SAME_LIMIT = ['--rate-limit', `3/${WINDOW_MS / 1000}s`];

/**
 * The line a wait over ~2 s prints on a stream that is not a terminal. At most the 8 s window
 * plus one: Retry-After is in whole seconds and the countdown rounds up.
 */
const SERVER_WAIT = /^waiting, [3-9] s left: the server asked to wait \(429, mutation rate limit\)$/mu;

describe.concurrent('a wait over ~2 s shows its reason and time left, in every command', () => {
  it('create-slots', { timeout: 30_000 }, async () => {
    const { server, env } = await exhaustedServer();
    try {
      const run = await runCli(['create-slots', '--service', DEMO_IDS.defaultModeServiceId, '--tz', 'UTC', '--from', '2027-02-01', '--to', '2027-02-07', '--weekly', 'Mon 10:00-11:00', ...SAME_LIMIT], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(SERVER_WAIT);
      expect(run.stdout).toContain('1 created, 0 failed');
    } finally {
      await server.close();
    }
  });

  it('cancel-meetings', { timeout: 30_000 }, async () => {
    const { server, demo, env } = await exhaustedServer();
    try {
      const ids = join(dir, 'cancel.txt');
      await writeFile(ids, `${demo.meetings.open[0]?.id}\n`);
      const run = await runCli(['cancel-meetings', '--ids', ids, ...SAME_LIMIT], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(SERVER_WAIT);
    } finally {
      await server.close();
    }
  });

  it('grant-coupon (a run right after another: the server\'s window is still full)', { timeout: 30_000 }, async () => {
    const { server, env } = await exhaustedServer();
    try {
      const csv = join(dir, 'members.csv');
      await writeFile(csv, `email\n${demoMemberEmail(4)}\n${demoMemberEmail(5)}\n`);
      const run = await runCli(['grant-coupon', '--coupon', DEMO_IDS.restrictedCouponId, '--csv', csv, ...SAME_LIMIT], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(SERVER_WAIT);
      expect(run.stdout).toMatch(/created +2\n/u);
    } finally {
      await server.close();
    }
  });

  it('grant-coupon under its own rate limit: the wait for the next slot', { timeout: 30_000 }, async () => {
    const { server, env } = await exhaustedServer();
    try {
      const csv = join(dir, 'paced.csv');
      await writeFile(csv, ['email', ...[6, 7, 8, 9].map((n) => demoMemberEmail(n))].join('\n') + '\n');
      // The server's window frees first; then the client's own budget of 2 per 8 s makes the third grant wait.
      await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
      const run = await runCli(['grant-coupon', '--coupon', DEMO_IDS.restrictedCouponId, '--csv', csv, '--rate-limit', `2/${WINDOW_MS / 1000}s`], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/^waiting, [3-8] s left: the mutation rate limit \(2 per 8 s\) is used up for now, by this or another client of the key; the next request goes when the window frees$/mu);
    } finally {
      await server.close();
    }
  });

  it('a server that does not answer: how long the request may still take', { timeout: 30_000 }, async () => {
    const silent = await startFaultServer();
    silent.script({ kind: 'hang' });
    try {
      const ids = join(dir, 'silent.txt');
      await writeFile(ids, '00000000-0000-4000-8000-000000000001\n');
      const running = startCli(['cancel-meetings', '--ids', ids], { ADMIN_API_URL: silent.url, ADMIN_API_KEY: DEMO_API_KEY });
      for (let tries = 0; tries < 200 && !running.output().stderr.includes('waiting'); tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      running.child.kill('SIGTERM');
      await running.finished;
      expect(running.output().stderr).toMatch(/^waiting, at most 2\d s left: no answer from the server yet \(a request gives up after 30 s\)$/mu);
    } finally {
      await silent.close();
    }
  });
});

describe('a self-hosted server with a lower budget: "when the server states a lower limit than configured, the CLI suggests --rate-limit"', () => {
  it('grant-coupon with the default budget against 20 per 2 s: the summary names the server budget and the --rate-limit to pass next time', { timeout: 60_000 }, async () => {
    const simulator = createSimulator({ limits: { mutations: { limit: 20, windowMs: 2_000 }, queries: { limit: 600, windowMs: 60_000 } } });
    seedDemoSchool(simulator);
    const server = await startMockServer({ simulator });
    try {
      const csv = join(dir, 'self-hosted.csv');
      await writeFile(csv, ['email', ...Array.from({ length: 60 }, (_, index) => demoMemberEmail(300 + index))].join('\n') + '\n');
      const run = await runCli(['grant-coupon', '--coupon', DEMO_IDS.restrictedCouponId, '--csv', csv], { ADMIN_API_URL: server.url, ADMIN_API_KEY: DEMO_API_KEY });
      expect(run.code, run.stderr).toBe(0);
      // The window is read from whole-second hints: an estimate, the longest whole second it allows
      // (up to 4 s on a loaded machine: the first burst's 429s come back late).
      expect(run.stdout).toMatch(
        /The server allows 20 mutations per about [2-4] s \(its 429s told; their hints come in whole seconds, so the window is an estimate, between \d\.\d and \d\.\d s\), not the 200 per 1m 00s this run assumed at first\. Next time, pass --rate-limit 20\/[2-4]s to start at its pace without those 429s \(--rate-limit 20\/[3-5]s if 429s still come\)\./u,
      );
    } finally {
      await server.close();
    }
  });
});
