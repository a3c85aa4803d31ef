import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { AdminClient } from '../../src/index.js';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import type { AcquireRequest } from '../../src/rate-limit/permit-store.js';
import { permitKeys } from '../../src/redis/permit-keys.js';
import { RedisPermitStore } from '../../src/redis/index.js';
import { DEMO_API_KEY, DEMO_IDS } from '../../src/testing/index.js';
import { VirtualClock } from '../rate-limit/virtual-clock.js';
import { useDemoServers } from '../support/demo-server.js';
import { uniqueKeyPrefix, useCrashableRedis } from './shared-redis.js';

const redis = useCrashableRedis();
const startDemoServer = useDemoServers();
const BUCKET = bucketName('store-reset-key', 'mutations');
const WINDOW_MS = 1_000;
const LEASE_MS = 5_000;

const clients: Redis[] = [];
afterAll(() => Promise.all(clients.map((client) => client.quit().catch(() => undefined))));

/** A connection of its own, as a process has (reconnecting after a crash, as ioredis does by default). */
function connect(): Redis {
  const client = new Redis(redis().url);
  client.on('error', () => undefined);
  clients.push(client);
  return client;
}

/** Stores of one bucket on one virtual clock, each on its own connection, as processes sharing a key. */
function processes(count: number): { stores: RedisPermitStore<Redis>[]; clock: VirtualClock; keyPrefix: string } {
  const clock = new VirtualClock(0);
  const keyPrefix = uniqueKeyPrefix();
  return { stores: Array.from({ length: count }, () => new RedisPermitStore(connect(), { keyPrefix, clock: clock.now })), clock, keyPrefix };
}

const request = (limit: number): AcquireRequest => ({ bucket: BUCKET, limit, windowMs: WINDOW_MS, leaseMs: LEASE_MS });

async function grant(store: RedisPermitStore, acquire: AcquireRequest): Promise<string> {
  const result = await store.tryAcquire(acquire);
  if (!result.granted) throw new Error(`expected a permit, got ${JSON.stringify(result)}`);
  return result.permitId;
}

async function grantedOf(store: RedisPermitStore, acquire: AcquireRequest, attempts: number): Promise<number> {
  let granted = 0;
  for (let attempt = 0; attempt < attempts; attempt += 1) if ((await store.tryAcquire(acquire)).granted) granted += 1;
  return granted;
}

/** Redis loses every key (FLUSHALL: what a restart without persistence or a failover to an empty replica leaves). */
const loseData = (): Promise<'OK'> => connect().flushall();

describe('RedisPermitStore when Redis loses its data: "the lost count must not read as an empty window"', () => {
  it('the store that held permits sees the loss at its next request and writes them back with their times', async () => {
    const { stores, clock, keyPrefix } = processes(1);
    const [store] = stores as [RedisPermitStore<Redis>];
    const [first, second, third] = [await grant(store, request(3)), await grant(store, request(3)), await grant(store, request(3))];
    clock.set(100);
    await store.release(BUCKET, first, WINDOW_MS);
    clock.set(200);
    await store.release(BUCKET, second, WINDOW_MS);
    await loseData();
    clock.set(300);

    // Not granted on the empty window: its three permits still count, until 1 100 for the earliest.
    expect(await store.tryAcquire(request(3))).toMatchObject({ granted: false, retryAfterMs: 800, paused: false });
    const keys = permitKeys(keyPrefix, BUCKET);
    const redisClient = connect();
    // Answered permits are scored by their answer (they count a window after it).
    expect(await redisClient.zscore(keys.answered, first)).toBe('100');
    expect(await redisClient.zscore(keys.answered, second)).toBe('200');
    expect(await redisClient.zscore(keys.inFlight, third)).toBe(String(LEASE_MS));
    clock.set(1_100);
    expect((await store.tryAcquire(request(3))).granted).toBe(true);
  });

  it('while the bucket recovers, every store together holds at most what the stores that saw the loss held, for window + lease after it', async () => {
    const { stores, clock, keyPrefix } = processes(3);
    const [survivor, gone, newcomer] = stores as [RedisPermitStore, RedisPermitStore, RedisPermitStore<Redis>];
    for (const store of [survivor, survivor, gone, gone]) await store.release(BUCKET, await grant(store, request(4)), WINDOW_MS);
    await loseData();
    clock.set(200);

    // The survivor saw the loss (and restored its 2); the other process never comes back, but its 2
    // permits still count at the server until 1 000: a newcomer may not take them.
    expect(await survivor.tryAcquire(request(4))).toMatchObject({ granted: false, retryAfterMs: 800 });
    expect(await newcomer.tryAcquire(request(4))).toMatchObject({ granted: false, retryAfterMs: 800 });
    const recoveryEnd = 200 + WINDOW_MS + LEASE_MS;
    expect(await connect().hget(permitKeys(keyPrefix, BUCKET).recovery, 'until')).toBe(String(recoveryEnd));

    // What the survivor held frees, and any store may take it: 2, not the limit of 4.
    clock.set(1_000);
    expect(await grantedOf(newcomer, request(4), 4)).toBe(2);
    clock.set(recoveryEnd - 1);
    expect(await grantedOf(survivor, request(4), 2)).toBe(0);
    // Nothing lost counts any more: the whole limit is back.
    clock.set(recoveryEnd);
    expect(await grantedOf(survivor, request(4), 4)).toBe(2);
  });

  it('permits asked for together (tryAcquireMany, a queue of waiting calls) get no more of the recovery\'s room than one by one', async () => {
    const { stores, clock } = processes(3);
    const [survivor, gone, newcomer] = stores as [RedisPermitStore, RedisPermitStore, RedisPermitStore<Redis>];
    for (const store of [survivor, survivor, gone, gone]) await store.release(BUCKET, await grant(store, request(4)), WINDOW_MS);
    await loseData();
    clock.set(200);
    expect(await survivor.tryAcquire(request(4))).toMatchObject({ granted: false, retryAfterMs: 800 });
    clock.set(1_000);
    // The limit has room for 4, the recovery for the survivor's 2 only.
    const granted = (await newcomer.tryAcquireMany(request(4), 4)).filter((result) => result.granted);
    expect(granted).toHaveLength(2);
    expect(await grantedOf(survivor, request(4), 1)).toBe(0);
  });

  it("two stores that saw the loss add up what each held: the room is the sum, never more", async () => {
    const { stores, clock } = processes(3);
    const [first, second, newcomer] = stores as [RedisPermitStore, RedisPermitStore, RedisPermitStore<Redis>];
    await first.release(BUCKET, await grant(first, request(3)), WINDOW_MS);
    clock.set(100);
    for (const store of [second, second]) await store.release(BUCKET, await grant(store, request(3)), WINDOW_MS);
    await loseData();
    clock.set(200);
    expect(await grantedOf(first, request(3), 1)).toBe(0);
    expect(await grantedOf(second, request(3), 1)).toBe(0);
    // The first store's permit stopped counting at 1 000; the second's count until 1 100.
    clock.set(1_000);
    expect(await grantedOf(newcomer, request(3), 3)).toBe(1);
    clock.set(1_100);
    expect(await grantedOf(newcomer, request(3), 3)).toBe(2);
  });

  it('a store sees the loss only when it granted a permit within window + lease (before that, another generation is a fresh bucket)', async () => {
    const { stores, clock } = processes(2);
    const [recent, idle] = stores as [RedisPermitStore, RedisPermitStore<Redis>];
    await idle.release(BUCKET, await grant(idle, request(2)), WINDOW_MS);
    clock.set(WINDOW_MS + LEASE_MS);
    await recent.release(BUCKET, await grant(recent, request(2)), WINDOW_MS);
    await loseData();

    // The idle store's permit stopped counting long ago: it cannot tell, and takes the empty window.
    expect(await grantedOf(idle, request(2), 1)).toBe(1);
    // The recent one can: its permit still counts, so the bucket recovers with room for what it held
    // (1), which the idle store's new permit already takes.
    expect(await recent.tryAcquire(request(2))).toMatchObject({ granted: false, retryAfterMs: WINDOW_MS });
  });

  it('an idle bucket whose keys expired on their own is no loss: the generation outlives the rest', async () => {
    const client = connect();
    const keyPrefix = uniqueKeyPrefix();
    const store = new RedisPermitStore(client, { keyPrefix });
    // Short, real times: the permit counts about 100 ms after its answer, the generation stays 2 x (100 + 200) ms.
    const short: AcquireRequest = { bucket: BUCKET, limit: 1, windowMs: 100, leaseMs: 200 };
    const keys = permitKeys(keyPrefix, BUCKET);
    await store.release(BUCKET, await grant(store, short), short.windowMs);
    for (let waited = 0; waited < 10_000 && (await client.exists(keys.answered, keys.inFlight)) > 0; waited += 20) await sleep(20);
    expect(await client.exists(keys.generation)).toBe(1);
    expect((await store.tryAcquire(short)).granted).toBe(true);
    for (let waited = 0; waited < 10_000 && (await client.keys(`${keyPrefix}*`)).length > 0; waited += 50) await sleep(50);
    expect((await store.tryAcquire(short)).granted).toBe(true);
    expect(await client.exists(keys.recovery)).toBe(0);
  });

  it('after a crash, the room is what the store held when its connection dropped, not what was left when it got back', async () => {
    const { stores, clock, keyPrefix } = processes(1);
    const [store] = stores as [RedisPermitStore<Redis>];
    for (let index = 0; index < 3; index += 1) await store.release(BUCKET, await grant(store, request(3)), WINDOW_MS);
    const dropped = once(store.client, 'close');
    const crash = redis().crash(100);
    await dropped;
    // While Redis is down, every permit stops counting: the store held 3 when Redis lost them.
    clock.set(2 * WINDOW_MS);
    await crash;
    expect(await grantedOf(store, request(3), 4)).toBe(3);
    expect(await connect().hget(permitKeys(keyPrefix, BUCKET).recovery, 'until')).toBe(String(2 * WINDOW_MS + WINDOW_MS + LEASE_MS));
  });
});

describe('while Redis is down', () => {
  it('a call whose permit cannot be asked for (ioredis gave up: maxRetriesPerRequest) fails with the ioredis error and sends nothing', async () => {
    const server = await startDemoServer({ limits: { mutations: { limit: 5, windowMs: WINDOW_MS } } });
    const client = new Redis(redis().url, { maxRetriesPerRequest: 1 });
    client.on('error', () => undefined);
    clients.push(client);
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, limits: { store: new RedisPermitStore(client, { keyPrefix: uniqueKeyPrefix() }) } });
    await client.ping();
    const dropped = once(client, 'close');
    const crash = redis().crash(3_000);
    await dropped;
    const error: unknown = await admin.updateCoupon(DEMO_IDS.restrictedCouponId, { name: 'Down' }).catch((caught: unknown) => caught);
    await crash;
    expect(error).toMatchObject({ name: 'MaxRetriesPerRequestError' });
    expect(server.simulator.stats().requests.mutations).toBe(0);
  });
});
