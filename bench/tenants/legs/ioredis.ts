import { Redis } from 'ioredis';
import { startRedisServer } from '../../../test/support/redis-server.js';
import type { StoreLeg } from './leg.js';

/**
 * RedisPermitStore over one ioredis connection to one redis-server (started by the cell, no
 * persistence). Round trips are the commands the store's connection sends (its `sendCommand`):
 * a pipelined batch counts as its commands, so an upper bound. (The server's
 * total_commands_processed was 45-57 per permit: it also counts the commands each Lua script runs.)
 */
export const ioredisLeg: StoreLeg = {
  name: 'ioredis',
  description: 'RedisPermitStore over one ioredis client, one redis-server',
  goals: { heapPerCounted: 200, jobOverBound: 1.05, roundTripsPerPermit: 1 },
  async open(sdk) {
    const server = await startRedisServer();
    const client = new Redis(server.url);
    let sent = 0;
    const sendCommand = client.sendCommand.bind(client);
    client.sendCommand = (...args: Parameters<typeof sendCommand>) => {
      sent += 1;
      return sendCommand(...args);
    };
    const { RedisPermitStore } = await sdk.redis();
    return {
      store: () => new RedisPermitStore(client),
      roundTrips: async () => sent,
      async close() {
        client.disconnect();
        await server.stop();
      },
    };
  },
};
