import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { DEMO_DELETED_MEMBER_NUMBERS, DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';
import type { GrantOutcomeCounts } from '../../src/index.js';
import type { useDemoServers } from '../support/demo-server.js';
import { uniqueKeyPrefix, type CrashableRedis } from './shared-redis.js';

const run = promisify(execFile);
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const JOB_SCRIPT = fileURLToPath(new URL('./fixtures/grant-through-redis.ts', import.meta.url));

const LIMIT = 30;
const WINDOW_MS = 2_000;
const MEMBERS_PER_PROCESS = 120;
/** Crashes (Redis killed, started again empty after the outage) once the server granted this many members. */
export const CRASHES = [
  { afterGrants: 30, outageMs: 300 },
  { afterGrants: 90, outageMs: 900 },
  { afterGrants: 150, outageMs: 4_000 },
];

/** What a job process prints when it ends (test/redis/fixtures/grant-through-redis.ts). */
interface JobReport {
  counts: GrantOutcomeCounts;
  rateLimited: number;
  durationMs: number;
  errors: string[];
}

const deleted = new Set<number>(DEMO_DELETED_MEMBER_NUMBERS);
const liveMembers = Array.from({ length: 2 * MEMBERS_PER_PROCESS + deleted.size }, (_, index) => index + 1)
  .filter((n) => !deleted.has(n))
  .slice(0, 2 * MEMBERS_PER_PROCESS);

/** Latency of 5-40 ms each way: round trips of about 10-80 ms, as over a network. */
const latencyMs = (): number => 5 + Math.random() * 35;

/**
 * Two processes run one `grantCouponToMany` job sharing the key through Redis with `library`'s
 * client, while Redis crashes and starts again empty ({@link CRASHES}). Asserts: 0 429s, every
 * member granted exactly once, no row failed.
 */
export async function runJobThroughCrashes(redis: () => CrashableRedis, startDemoServer: ReturnType<typeof useDemoServers>, library: 'ioredis' | 'node-redis-6'): Promise<void> {
  const server = await startDemoServer({ limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS } }, latency: { beforeArrivalMs: latencyMs, afterHandlingMs: latencyMs } });
  const keyPrefix = uniqueKeyPrefix();
  const emails = liveMembers.map(demoMemberEmail);
  const job = (members: string[]) =>
    run(process.execPath, ['--import', 'tsx', JOB_SCRIPT, server.url, redis().url, keyPrefix, String(LIMIT), String(WINDOW_MS), ...members], { cwd: PROJECT_ROOT, maxBuffer: 1 << 20, env: { ...process.env, REDIS_LIBRARY: library } });
  let running = true;
  const jobs = Promise.all([job(emails.slice(0, MEMBERS_PER_PROCESS)), job(emails.slice(MEMBERS_PER_PROCESS))]).finally(() => {
    running = false;
  });
  jobs.catch(() => undefined); // awaited below; a job that fails must not stop the crash loop first
  const school = server.simulator.school();
  const granted = () => [...school.tables.grants.values()].filter((grant) => grant.couponId === DEMO_IDS.restrictedCouponId && grant.grantedByName === null);
  const firstProcessMembers = new Set(emails.slice(0, MEMBERS_PER_PROCESS));
  // Only a process that sent requests knows of them: both must have sent some before Redis loses
  // the first time (a process that starts after a loss is the documented gap).
  const bothSent = () => {
    const senders = new Set(granted().map((grant) => firstProcessMembers.has(school.tables.users.get(grant.userId)?.email ?? '')));
    return senders.size === 2;
  };
  for (const crash of CRASHES) {
    while (running && !(granted().length >= crash.afterGrants && bothSent())) await sleep(10);
    if (running) await redis().crash(crash.outageMs);
  }
  const reports = (await jobs).map((output) => JSON.parse(output.stdout) as JobReport);

  const stats = server.simulator.stats();
  expect({ rateLimited: stats.rateLimited.mutations, reported: reports.map((report) => report.rateLimited) }).toEqual({ rateLimited: 0, reported: [0, 0] });
  expect(reports.map((report) => report.errors)).toEqual([[], []]);
  expect(reports.map((report) => report.counts.created)).toEqual([MEMBERS_PER_PROCESS, MEMBERS_PER_PROCESS]);
  const grantedEmails = granted().map((grant) => school.tables.users.get(grant.userId)?.email);
  expect(grantedEmails.sort()).toEqual([...emails].sort());
  expect(stats.fields['createCouponGrant']?.executions).toBe(emails.length);
}
