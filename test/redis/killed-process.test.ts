import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { RedisPermitStore } from '../../src/redis/index.js';
import { redisTimeMs, waitForRedisTime } from './redis-time.js';
import { uniqueKeyPrefix, useRedisServer } from './shared-redis.js';

const redis = useRedisServer();
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOLDER_SCRIPT = fileURLToPath(new URL('./fixtures/hold-permits.ts', import.meta.url));

/** What the holder process reports once it holds its permits (times on Redis's clock). */
interface HolderReport {
  granted: number;
  firstAcquireAt: number;
  lastAcquireAt: number;
}

async function firstLine(child: ChildProcess): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const end = output.indexOf('\n');
      if (end >= 0) resolve(output.slice(0, end));
    });
    child.once('exit', (code) => reject(new Error(`the holder process exited (code ${code}) before reporting: ${output}`)));
  });
}

describe('a process killed while holding Redis permits', () => {
  it('blocks the shared budget only until its leases end plus one window, then the full budget is back', async () => {
    const limit = 5;
    // Margins are seconds on purpose: the "still blocked" checks must not depend on a quick machine.
    const leaseMs = 2_000;
    const windowMs = 2_000;
    const keyPrefix = uniqueKeyPrefix();
    const client = redis().connect();
    const store = new RedisPermitStore(client, { keyPrefix });
    const bucket = bucketName('killed-process-key', 'mutations');
    const args = [redis().server.url, keyPrefix, bucket, String(limit), String(windowMs), String(leaseMs)];
    const holder = spawn(process.execPath, ['--import', 'tsx', HOLDER_SCRIPT, ...args], { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const report = JSON.parse(await firstLine(holder)) as HolderReport;
    expect(report.granted).toBe(limit);

    const exited = once(holder, 'exit');
    holder.kill('SIGKILL');
    await exited;
    expect(holder.signalCode).toBe('SIGKILL');

    const request = { bucket, limit, windowMs, leaseMs };
    const countedUntilAtLeast = report.firstAcquireAt + leaseMs + windowMs;

    // Right after the kill its leases still run: the budget is full, and the refusal points at a lease end.
    expect(await redisTimeMs(client)).toBeLessThan(report.firstAcquireAt + leaseMs);
    const whileLeased = await store.tryAcquire(request);
    expect(whileLeased).toMatchObject({ granted: false, paused: false });
    if (!whileLeased.granted) expect(whileLeased.retryAfterMs).toBeLessThanOrEqual(leaseMs);

    // Once the leases ended they count as answered then: still blocked, for at most one window.
    await waitForRedisTime(client, report.lastAcquireAt + leaseMs);
    expect(await redisTimeMs(client)).toBeLessThan(countedUntilAtLeast);
    const afterLeases = await store.tryAcquire(request);
    expect(afterLeases).toMatchObject({ granted: false, paused: false });
    if (!afterLeases.granted) expect(afterLeases.retryAfterMs).toBeLessThanOrEqual(windowMs);

    // Lease end + window later, the dead process holds nothing: a full burst goes out at once.
    await waitForRedisTime(client, report.lastAcquireAt + leaseMs + windowMs);
    const burst = await Promise.all(Array.from({ length: limit }, () => store.tryAcquire(request)));
    expect(burst.every((result) => result.granted)).toBe(true);
  });
});
