import type { PacingOptions } from '../../client/options/options.js';
import { CliUsageError } from './cli-usage-error.js';

/** The help of `--redis`. */
export const REDIS_HELP = 'share the key\'s budget with other processes through the Redis server at URL (needs the ioredis package); keeps their interactive calls first';

/**
 * How the bulk commands pace, for their `--help` (issue 27): batch mode on their own budget, lanes
 * with a shared one.
 */
export const PACING_HELP = `Pacing: without --redis the command runs in batch mode (limits.interactiveReserve 0):
its budget is its own and nothing else in its process makes interactive calls, so it keeps no slot
free for them and goes at the rate limit. With --redis the budget is shared with other processes of
the key, which may make interactive calls: the command keeps lanes (their calls go first, a few
slots stay free for them), as the SDK does by default.`;

/** The pacing a bulk command's client gets, and what to close when the command ends. */
export interface CommandPacing {
  limits: Pick<PacingOptions, 'interactiveReserve' | 'store'>;
  close(): Promise<void>;
}

/**
 * Batch mode without `redisUrl`; with it, a `RedisPermitStore` on a connection made now (so that a
 * wrong URL or a Redis that is down is a usage error at once, not a hang at the first grant). The
 * URL is never echoed: it may hold a password.
 *
 * @throws {CliUsageError} when ioredis is not installed or Redis cannot be reached.
 */
export async function commandPacing(command: string, redisUrl: string | undefined): Promise<CommandPacing> {
  if (redisUrl === undefined) return { limits: { interactiveReserve: 0 }, close: async () => {} };
  let Redis: typeof import('ioredis').Redis;
  try {
    ({ Redis } = await import('ioredis'));
  } catch {
    throw new CliUsageError(`Failed to start ${command}: --redis needs the ioredis package, which is not installed. Install it (npm install ioredis) or leave --redis out.`);
  }
  // connect() rejects at the first failed attempt (a refused port, a host that does not answer in
  // 5 s); once connected, a blip of Redis is waited out as ioredis does by default.
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 5_000 });
  let lastError: unknown;
  client.on('error', (error: unknown) => void (lastError = error)); // reported below, or by the command's calls
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    const code = (error as { code?: unknown } | null)?.code ?? (lastError as { code?: unknown } | undefined)?.code;
    throw new CliUsageError(`Failed to start ${command}: the Redis server of --redis could not be reached${typeof code === 'string' ? ` (${code})` : ''}. Check the URL (redis://host:port) and that Redis runs.`);
  }
  const { RedisPermitStore } = await import('../../redis/redis-permit-store.js');
  return {
    limits: { store: new RedisPermitStore(client) },
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** `--redis`'s URL as a resume line may repeat it: itself, unless it holds a user or password (then a placeholder). */
export function redisArgument(url: string): string {
  return url.includes('@') ? '<the same Redis URL>' : url;
}
