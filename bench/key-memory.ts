/**
 * Memory per API key (issue 13): a multi-tenant process creates a client for each of 1,000,000
 * distinct keys, makes one call and drops it; the heap (after a forced GC) is sampled every
 * 100,000 keys and must stay flat. The window is scaled down to 100 ms so that "over time" fits in
 * a run: a key's state is due to be freed a window after its call was answered. The baseline
 * (9852450) runs 100,000 keys side by side, its growth per key extrapolated. Then the Redis store:
 * 10,000 keys used once leave no key behind once their window has passed.
 *
 * Run: npm run bench:key-memory   (node --expose-gc)   [-- <keys>] [--no-baseline]
 */
import { Redis } from 'ioredis';
import { startRedisServer } from '../test/support/redis-server.js';
import { heapAfterGc, sleep, grantedFetch } from './queue/stub-api.js';
import { baselineUnavailable, importSdk, type RedisModule, type SdkModule, type SdkVersion } from './support/sdk-versions.js';

const WINDOW_MS = 100;
const SAMPLE_EVERY = 100_000;
const keysArgument = process.argv.slice(2).find((arg) => /^\d+$/.test(arg));
const KEYS = keysArgument === undefined ? 1_000_000 : Number(keysArgument);
const BASELINE_KEYS = Math.min(KEYS, 100_000);

async function tenants(version: SdkVersion, keys: number): Promise<void> {
  const sdk = await importSdk<SdkModule>(version, 'index.ts');
  const started = performance.now();
  const samples: { keys: number; heapMb: number }[] = [];
  const sample = (done: number): void => {
    samples.push({ keys: done, heapMb: heapAfterGc() / 1024 / 1024 });
    console.log(`  ${version.padEnd(8)} ${done.toLocaleString('en').padStart(9)} keys: heap ${samples.at(-1)?.heapMb.toFixed(1)} MB  (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  };
  // A few keys first, so that the first sample holds the code and caches, not the keys.
  for (let key = 0; key < keys; key += 1) {
    // The process-wide default store, as a multi-tenant server that passes no store uses.
    const admin = new sdk.AdminClient({ apiKey: `sk_live_tenant_${version}_${key}`, baseUrl: 'http://127.0.0.1:9', fetch: grantedFetch, limits: { mutations: { windowMs: WINDOW_MS } } });
    await admin.grantCoupon('coupon-1', { userId: `user-${key}` });
    if (key === 9_999) {
      await sleep(WINDOW_MS * 2);
      sample(key + 1);
    } else if ((key + 1) % SAMPLE_EVERY === 0) {
      sample(key + 1);
    }
  }
  await sleep(WINDOW_MS * 2);
  // One more call lets the store look at idle keys (it frees them as it is used, with no timer).
  await new sdk.AdminClient({ apiKey: 'sk_live_last_one', baseUrl: 'http://127.0.0.1:9', fetch: grantedFetch, limits: { mutations: { windowMs: WINDOW_MS } } }).grantCoupon('coupon-1', { userId: 'last' });
  sample(keys);
  const first = samples[0] as { keys: number; heapMb: number };
  const last = samples.at(-1) as { keys: number; heapMb: number };
  const perKey = ((last.heapMb - first.heapMb) * 1024 * 1024) / (last.keys - first.keys);
  console.log(`  ${version.padEnd(8)} heap from ${first.keys.toLocaleString('en')} to ${last.keys.toLocaleString('en')} keys: ${(last.heapMb - first.heapMb >= 0 ? '+' : '')}${(last.heapMb - first.heapMb).toFixed(1)} MB (${perKey.toFixed(1)} bytes per key)`);
}

async function redisKeys(): Promise<void> {
  const server = await startRedisServer();
  const client = new Redis(server.url);
  try {
    const sdk = await importSdk<SdkModule>('current', 'index.ts');
    const { RedisPermitStore } = await importSdk<RedisModule>('current', 'redis/index.ts');
    const store = new RedisPermitStore(client);
    const keys = 10_000;
    for (let key = 0; key < keys; key += 1) {
      const admin = new sdk.AdminClient({ apiKey: `sk_live_redis_tenant_${key}`, baseUrl: 'http://127.0.0.1:9', fetch: grantedFetch, limits: { mutations: { windowMs: WINDOW_MS }, store } });
      await admin.grantCoupon('coupon-1', { userId: `user-${key}` });
    }
    const right = await client.dbsize();
    // Interactive presence lasts a window; every key expires a window after its last write.
    let waited = 0;
    while ((await client.dbsize()) > 0 && waited < 10_000) {
      await sleep(50);
      waited += 50;
    }
    console.log(`  current  Redis: ${keys.toLocaleString('en')} keys used once -> ${right.toLocaleString('en')} Redis keys right after, ${await client.dbsize()} after ${waited} ms more`);
  } finally {
    await client.quit();
    await server.stop();
  }
}

const problem = process.argv.includes('--no-baseline') ? 'not asked for' : baselineUnavailable();
console.log(`Memory per key (node ${process.version}): one client per key, one call each, window ${WINDOW_MS} ms${problem === undefined ? '' : `; baseline skipped: ${problem}`}\n`);
await tenants('current', KEYS);
if (problem === undefined) await tenants('baseline', BASELINE_KEYS);
await redisKeys();
process.exit(0);
