import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script run atomically on Redis by its SHA-1 (EVALSHA), sending its text (EVAL) only when
 * the server does not know it yet (after a restart or a SCRIPT FLUSH).
 *
 * @example
 * ```ts
 * const ping = new LuaScript("return redis.call('PING')");
 * await ping.run(redis, [], []); // 'PONG'
 * ```
 */
export class LuaScript {
  /** The script's text. */
  readonly source: string;
  /** The SHA-1 Redis knows the script by. */
  readonly sha1: string;

  constructor(source: string) {
    this.source = source;
    this.sha1 = createHash('sha1').update(source).digest('hex');
  }

  /** Runs the script with `keys` as KEYS and `args` as ARGV; resolves to its raw reply. */
  async run(client: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await client.evalsha(this.sha1, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
