import type { TestProject } from 'vitest/node';
import { ciFailure, isCi, resolveTestRedis, skippedNotice, type TestRedisTarget } from './redis-lookup.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the Redis suites get their server (see test/support/redis-lookup.ts). */
    testRedis: TestRedisTarget;
  }
}

/**
 * Vitest global set-up, run once per `vitest run` before any test file: finds redis-server (or
 * REDIS_URL), installs it where it can, and otherwise makes the Redis suites skip with a loud
 * notice (printed again at the end of the run), or fails the run under CI.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const target = await resolveTestRedis(process.env);
  if (target.kind === 'missing' && isCi(process.env)) throw ciFailure(target.reason);
  project.provide('testRedis', target);
  if (target.kind !== 'missing') return () => undefined;
  const notice = skippedNotice(target.reason);
  process.stderr.write(notice);
  return () => {
    process.stderr.write(`\n${notice}`);
  };
}
