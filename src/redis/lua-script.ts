import { createHash } from 'node:crypto';

/**
 * A Lua script run atomically on Redis by its SHA-1 (EVALSHA); the store's connection sends its
 * text (EVAL) only when the node does not know it yet (after a restart, a SCRIPT FLUSH, or on a
 * cluster node that never ran it). See src/redis/connection/.
 *
 * @example
 * ```ts
 * const ping = new LuaScript("return redis.call('PING')");
 * await connection.run({ script: ping, keys: [], args: [] }); // 'PONG'
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
}
