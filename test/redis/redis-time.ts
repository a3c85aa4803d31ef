import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

/** Redis's clock (TIME), in epoch milliseconds: the clock the permit scripts decide on. */
export async function redisTimeMs(client: Redis): Promise<number> {
  const [seconds, microseconds] = await client.time();
  return Number(seconds) * 1_000 + Math.floor(Number(microseconds) / 1_000);
}

/** Resolves once Redis's clock reads `targetMs` or later. */
export async function waitForRedisTime(client: Redis, targetMs: number): Promise<void> {
  for (let now = await redisTimeMs(client); now < targetMs; now = await redisTimeMs(client)) await sleep(targetMs - now);
}
