import { describe, expect, it } from 'vitest';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { permitKeys } from '../../src/redis/permit-keys.js';
import { RedisPermitStore } from '../../src/redis/index.js';
import { describePermitStoreContract } from '../rate-limit/permit-store-contract.js';
import { useRedisCluster } from './shared-cluster.js';
import { uniqueKeyPrefix } from './shared-redis.js';

const cluster = useRedisCluster({ nodeTimeoutMs: 5_000 });

describe('RedisPermitStore on a Redis Cluster (3 masters, a replica each)', () => {
  describe('an ioredis Cluster', () => {
    describePermitStoreContract(async (now) => ({
      store: new RedisPermitStore(await cluster().shared('ioredis'), { keyPrefix: uniqueKeyPrefix(), clock: now }),
      close: async () => {},
    }));
  });

  describe.each([6, 5] as const)('a node-redis %i cluster (createCluster)', (major) => {
    describePermitStoreContract(async (now) => ({
      store: new RedisPermitStore(await cluster().shared(major), { keyPrefix: uniqueKeyPrefix(), clock: now }),
      close: async () => {},
    }));
  });

  describe('slots: "every script\'s keys of one bucket sit in one slot, and buckets of different API keys spread over the slots"', () => {
    it('CLUSTER KEYSLOT gives every key of a bucket the same slot, under the default prefix and under a prefix of its own', async () => {
      const { cluster: nodes } = cluster();
      const [node] = nodes.nodes;
      if (node === undefined) throw new Error('no node');
      for (const prefix of ['school-admin-sdk:', 'app:{tenants}:', 'a{b:', '']) {
        for (const bucket of [bucketName('sk_live_slot_a', 'mutations'), bucketName('sk_live_slot_b', 'queries')]) {
          const slots = await Promise.all(Object.values(permitKeys(prefix, bucket)).map((key) => nodes.command(node.port, 'CLUSTER', 'KEYSLOT', key)));
          expect(new Set(slots).size, `${prefix}${bucket}`).toBe(1);
        }
      }
    });

    it('the buckets of 300 API keys land on 300 distinct slots or nearly, served by every master', async () => {
      const { cluster: nodes } = cluster();
      const [node] = nodes.nodes;
      if (node === undefined) throw new Error('no node');
      const buckets = Array.from({ length: 300 }, (_, index) => bucketName(`sk_live_tenant_${index}`, 'mutations'));
      const slots = await Promise.all(buckets.map((bucket) => nodes.command(node.port, 'CLUSTER', 'KEYSLOT', permitKeys('school-admin-sdk:', bucket).inFlight)));
      // 300 random slots of 16,384: about 3 collide.
      expect(new Set(slots).size).toBeGreaterThan(290);
      const masters = await Promise.all(buckets.slice(0, 60).map((bucket) => nodes.masterOf(permitKeys('school-admin-sdk:', bucket).inFlight)));
      expect(new Set(masters).size).toBe(3);
    });

    it('a store on a cluster writes each bucket on the master of its slot (grants of 30 API keys reach all three masters)', async () => {
      const { cluster: nodes } = cluster();
      const keyPrefix = uniqueKeyPrefix();
      const store = new RedisPermitStore(cluster().ioredis(), { keyPrefix });
      const buckets = Array.from({ length: 30 }, (_, index) => bucketName(`sk_live_spread_${index}`, 'mutations'));
      for (const bucket of buckets) expect((await store.tryAcquire({ bucket, limit: 1, windowMs: 60_000, leaseMs: 30_000 })).granted).toBe(true);
      const holders = new Set<number>();
      for (const bucket of buckets) {
        const key = permitKeys(keyPrefix, bucket).inFlight;
        const master = await nodes.masterOf(key);
        expect(await nodes.command(master, 'ZCARD', key)).toBe(1);
        holders.add(master);
      }
      expect(holders.size).toBe(3);
    });
  });
});
