/**
 * Two processes' clients sharing one key's budget through a Redis Cluster, with node-redis
 * (`createCluster` of the `redis` package): each "process" here has its own cluster connection and
 * its own RedisPermitStore, as two servers of an app would. Their grants together stay under the
 * key's budget. What the store refuses (an options object instead of a client) is shown too.
 *
 * Run: npx tsx examples/redis-cluster.ts
 *   Your cluster: REDIS_CLUSTER_NODES=redis://10.0.0.1:6379,redis://10.0.0.2:6379 (any of its nodes).
 *   Without it, a throwaway 3-master cluster is started on loopback with the test suite's helper
 *   (needs redis-server and redis-cli: apt-get install redis-server); without those, the example
 *   says so and exits.
 */
import { createCluster } from 'redis';
import { AdminClient, InvalidInputError } from '../src/index.js';
import { DEMO_API_KEY } from '../src/testing/index.js';
import { RedisPermitStore } from '../src/redis/index.js';
import { locateRedisCli, locateRedisServer } from '../test/support/redis-lookup.js';
import { startRedisCluster } from '../test/support/redis-cluster.js';
import { step } from './support/report.js';
import { connect } from './support/target.js';

const BUDGET = { limit: 20, windowMs: 2_000 };

/** The cluster's node URLs, and how to stop the cluster when the example started it. */
async function clusterNodes(): Promise<{ urls: string[]; stop: () => Promise<void> } | undefined> {
  const given = process.env.REDIS_CLUSTER_NODES;
  if (given !== undefined && given !== '') return { urls: given.split(',').map((url) => url.trim()), stop: async () => undefined };
  const binary = locateRedisServer(process.env)?.path;
  const cli = binary === undefined ? undefined : locateRedisCli(process.env, binary)?.path;
  if (binary === undefined || cli === undefined) return undefined;
  const cluster = await startRedisCluster({ binary, cli, replicas: 0 });
  return { urls: cluster.nodes.map(({ host, port }) => `redis://${host}:${port}`), stop: () => cluster.stop() };
}

/** One app process's connection to the cluster (node-redis wants its 'error' event listened to). */
async function connectCluster(urls: readonly string[]) {
  const cluster = createCluster({ rootNodes: urls.map((url) => ({ url })) });
  cluster.on('error', (error: unknown) => console.error('Redis Cluster:', error));
  await cluster.connect();
  return cluster;
}

const nodes = await step('Find a Redis Cluster', async () => {
  const found = await clusterNodes();
  return { value: found, line: found === undefined ? 'none: set REDIS_CLUSTER_NODES, or install redis-server to start one here; skipped' : `${found.urls.length} nodes (${found.urls[0]}, ...)` };
});

if (nodes !== undefined) {
  const clusters = [await connectCluster(nodes.urls), await connectCluster(nodes.urls)];
  const target = await connect({ simulatorWindowMs: BUDGET.windowMs });
  try {
    await step('Pass the store something that is not a Redis client', async () => {
      try {
        new RedisPermitStore({ host: '127.0.0.1', port: 6379 } as never);
        throw new Error('the options object was accepted');
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        return { value: undefined, line: `InvalidInputError (field ${error.field}): ${error.message}` };
      }
    });

    await step(`Two processes grant 40 coupons with one key, whose budget is ${BUDGET.limit} per ${BUDGET.windowMs / 1_000} s`, async () => {
      // Each process makes its own client of the key, on its own cluster connection and store.
      const apiKey = target.mode === 'server' ? process.env.ADMIN_API_KEY : DEMO_API_KEY;
      const [one, two] = clusters.map((cluster) => new AdminClient({ apiKey, baseUrl: target.baseUrl, limits: { mutations: BUDGET, store: new RedisPermitStore(cluster) } }));
      if (one === undefined || two === undefined) throw new Error('two clients expected');
      const coupon = await one.createCoupon({ name: 'Cluster demo 10%', couponType: 'percentage', amount: 10, restricted: true });
      const emails = target.school.memberEmails.slice(0, 40);
      const started = performance.now();
      const results = await Promise.all(emails.map((email, index) => (index % 2 === 0 ? one : two).grantCoupon(coupon.id, { email })));
      const seconds = (performance.now() - started) / 1_000;
      // 41 mutations (the coupon and 40 grants) in one budget of 20 per window: the 41st waits for a
      // third window, at least two windows after the first answer. Two budgets would take one.
      if (seconds < (2 * BUDGET.windowMs) / 1_000) throw new Error(`41 mutations took ${seconds.toFixed(1)} s: the two processes did not share the budget`);
      return { value: results, line: `${results.length} granted in ${seconds.toFixed(1)} s: the two stores shared one budget in the cluster` };
    });
  } finally {
    await target.close();
    for (const cluster of clusters) cluster.destroy();
    await nodes.stop();
  }
}
