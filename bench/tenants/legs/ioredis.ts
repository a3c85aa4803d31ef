import { Redis } from 'ioredis';
import { startRedisServer } from '../../../test/support/redis-server.js';
import type { StoreLeg } from './leg.js';

/**
 * RedisPermitStore over one ioredis connection to one redis-server (started by the cell, no
 * persistence). Round trips are read from the server (`INFO stats`: commands processed), which
 * counts a pipelined batch as its commands: an upper bound of the round trips.
 */
export const ioredisLeg: StoreLeg = {
  name: 'ioredis',
  description: 'RedisPermitStore over one ioredis client, one redis-server',
  goals: { heapPerCounted: 200, jobOverBound: 1.05, roundTripsPerPermit: 1 },
  async open(sdk) {
    const server = await startRedisServer();
    const client = new Redis(server.url);
    const admin = new Redis(server.url);
    const { RedisPermitStore } = await sdk.redis();
    return {
      store: () => new RedisPermitStore(client),
      roundTrips: async () => Number(/total_commands_processed:(\d+)/.exec(await admin.info('stats'))?.[1] ?? Number.NaN),
      async close() {
        client.disconnect();
        admin.disconnect();
        await server.stop();
      },
    };
  },
};
