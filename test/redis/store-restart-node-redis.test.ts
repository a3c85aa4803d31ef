import { describe, it } from 'vitest';
import { useDemoServers } from '../support/demo-server.js';
import { runJobThroughCrashes } from './redis-crash-job.js';
import { useCrashableRedis } from './shared-redis.js';

const redis = useCrashableRedis();
const startDemoServer = useDemoServers();

describe('a Redis restart that loses the shared store\'s data: "no request goes over the limit"', () => {
  it('node-redis 6 clients: two processes sharing the key through Redis, Redis crashing and starting again empty for 0.3 s, 0.9 s (shorter than the window) and 4 s (longer): 0 429s, every member granted exactly once', async () => {
    await runJobThroughCrashes(redis, startDemoServer, 'node-redis-6');
  }, 90_000);
});
