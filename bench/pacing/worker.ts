/**
 * One "process" of the two-process scenario: runs its share of grants and prints a RunResult
 * as JSON. Usage: node --import tsx bench/pacing/worker.ts <sdk|naive> <url> <count> <offset> [redisUrl]
 */
import { createRedisPermitStore } from '../../src/redis/index.js';
import { runNaive, runSdk } from './runners.js';

const [mode, url, count, offset, redisUrl] = process.argv.slice(2);
if (url === undefined || count === undefined || offset === undefined) throw new Error('usage: worker.ts <sdk|naive> <url> <count> <offset> [redisUrl]');

if (mode === 'sdk') {
  if (redisUrl === undefined) throw new Error('the sdk worker needs a Redis URL');
  const store = createRedisPermitStore(redisUrl);
  const result = await runSdk(url, Number(count), Number(offset), store);
  await store.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  process.stdout.write(`${JSON.stringify(await runNaive(url, Number(count), Number(offset)))}\n`);
}
