import { describe, it } from 'vitest';
import { useDemoServers } from '../support/demo-server.js';
import { MASTER_FAULTS, runJobThroughMasterFaults } from './cluster-fault-job.js';
import { useRedisCluster } from './shared-cluster.js';

const cluster = useRedisCluster({ nodeTimeoutMs: 2_000 });
const startDemoServer = useDemoServers();

describe('the master holding a bucket fails over, is killed, or restarts empty in the middle of a job shared by two processes: "nothing lost, nothing sent twice, 0 requests over the limit"', () => {
  it(`a node-redis 6 cluster: ${MASTER_FAULTS.map((fault) => fault.kind).join(', then ')}: 0 429s, every member granted exactly once, no row failed`, async () => {
    await runJobThroughMasterFaults(cluster().cluster, startDemoServer, 'node-redis-6');
  }, 150_000);
});
