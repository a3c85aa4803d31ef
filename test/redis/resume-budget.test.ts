import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisPermitStore } from '../../src/redis/index.js';
import { startGrantServer } from '../cli/support/grant-server.js';
import { BUDGET, MEMBERS, expectResumedWithinBudget, killedPartWay, resumeInProcess, resumedFigures, sdkJob } from '../workflows/support/resume-run.js';
import { uniqueKeyPrefix, useRedisServer } from './shared-redis.js';

/*
 * Issue 30, point 1, with Redis: the Redis store granted the killed process's permits and counts
 * them (until a window after their answer, or their lease's end for those in flight), so a resumed
 * run must not count the journal's record of them a second time (RedisPermitStore has no `seed`).
 * Counted twice (Redis's count and the journal's), the resumed run would find no room for its
 * first grants and wait for the first run's to leave the window twice over.
 */

const redis = useRedisServer();

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'resume-budget-redis-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('"the Redis store already counts them and must not count them twice" (issue 30): 300 grants, SIGKILL after 150, resumed at once', () => {
  it('0 x 429, nothing granted twice, the last request within 1.10 x the bound that counts the first run', { timeout: 120_000 }, async () => {
    const target = await startGrantServer(MEMBERS, BUDGET);
    const prefix = uniqueKeyPrefix();
    const store = createRedisPermitStore(redis().server.url, { keyPrefix: prefix });
    try {
      const journal = join(dir, 'redis.journal');
      const membersFile = join(dir, 'redis-members.txt');
      await writeFile(membersFile, `${target.emails.join('\n')}\n`);
      const killed = await killedPartWay(journal, sdkJob(target, journal, membersFile, { url: redis().server.url, prefix }));

      const { from, summary } = await resumeInProcess(target, journal, store);
      expect(summary.allSucceeded).toBe(true);
      // Redis counts the permits the killed process held in flight until their lease's end (30 s timeout + 5 s), and a window more.
      const seen = resumedFigures(target, from, killed, 'SDK, Redis store', 35_000);
      expectResumedWithinBudget(seen);
    } finally {
      await store.close();
      await target.server.close();
    }
  });
});
