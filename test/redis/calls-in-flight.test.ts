import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { bucketName } from '../../src/rate-limit/bucket-name.js';
import { CallsInFlight, MAX_CALLS_IN_FLIGHT } from '../../src/redis/connection/calls-in-flight.js';
import { argumentsOf, type ScriptArguments, type ScriptCall, type ScriptConnection } from '../../src/redis/connection/script-connection.js';
import { LuaScript } from '../../src/redis/lua-script.js';
import { RedisPermitStore } from '../../src/redis/index.js';
import { permitKeys } from '../../src/redis/permit-keys.js';
import { uniqueKeyPrefix, useRedisServer } from './shared-redis.js';

/** A connection whose calls end when the test says, recording the most in flight at once. */
function heldConnection() {
  // The ARGV as a client gets it: made when the call reaches the connection.
  const pending: { call: ScriptCall; args: ScriptArguments; end: (fail?: boolean) => void }[] = [];
  let inFlight = 0;
  let most = 0;
  const connection: ScriptConnection = {
    run: (call) =>
      new Promise((resolve, reject) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        const args = argumentsOf(call);
        pending.push({
          call,
          args,
          end: (fail) => {
            inFlight -= 1;
            if (fail === true) reject(new Error(`failed ${String(args[0])}`));
            else resolve(args[0]);
          },
        });
      }),
    onDrop: () => () => undefined,
    end: async () => undefined,
  };
  return { connection, pending, most: () => most };
}

const call = (n: number): ScriptCall => ({ script: new LuaScript('return 1'), keys: ['k'], args: [n] });
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('CallsInFlight: "a burst of calls waits in the store, at most MAX_CALLS_IN_FLIGHT on the connection"', () => {
  it('keeps at most `limit` calls on the connection and starts the others in the order they were made', async () => {
    const held = heldConnection();
    const limited = new CallsInFlight(held.connection, 3);
    const settling = Promise.allSettled(Array.from({ length: 10 }, (_, n) => limited.run(call(n))));
    await turn();
    expect(held.pending.map((entry) => entry.args[0])).toEqual([0, 1, 2]);
    // Ending one call (failed or not) lets the next waiting call go, in order.
    held.pending[1]?.end(true);
    await turn();
    expect(held.pending.map((entry) => entry.args[0])).toEqual([0, 1, 2, 3]);
    for (let index = 0; index < held.pending.length; index += 1) {
      if (index === 1) continue;
      held.pending[index]?.end();
      await turn();
    }
    const settled = await settling;
    expect(settled.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).toEqual([0, 'failed 1', 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(held.most()).toBe(3);
  });

  it('frees its slots: once calls ended, new calls go at once', async () => {
    const held = heldConnection();
    const limited = new CallsInFlight(held.connection, 2);
    const first = [limited.run(call(0)), limited.run(call(1))];
    for (const entry of held.pending) entry.end();
    await Promise.all(first);
    void limited.run(call(2));
    void limited.run(call(3));
    await turn();
    expect(held.pending.map((entry) => entry.args[0])).toEqual([0, 1, 2, 3]);
  });
});

describe('arguments made when the call leaves: "each answer as the time from it until the moment the script call leaves"', () => {
  const redis = useRedisServer();
  const opened: { destroy(): void }[] = [];
  afterAll(() => {
    for (const client of opened) client.destroy();
  });

  it('a call that waited for its turn makes its ARGV when it is let go, not when it was made', async () => {
    const held = heldConnection();
    const limited = new CallsInFlight(held.connection, 1);
    let clock = 0;
    const lazy = (): ScriptCall => ({ script: new LuaScript('return 1'), keys: ['k'], args: () => [clock] });
    void limited.run(lazy());
    void limited.run(lazy());
    await turn();
    clock = 250; // the second call waits 250 ms for its turn
    held.pending[0]?.end();
    await turn();
    expect(held.pending.map((entry) => entry.args[0])).toEqual([0, 250]);
  });

  it('a release that waited behind a burst of 5,000 permit requests is dated when its answer came, not when its turn came', async () => {
    const client = createClient({ url: redis().server.url });
    opened.push(client);
    await client.connect();
    const keyPrefix = uniqueKeyPrefix();
    const store = new RedisPermitStore(client, { keyPrefix });
    const bucket = bucketName('sk_live_release_dated', 'mutations');
    const acquire = { bucket, limit: 1, windowMs: 60_000, leaseMs: 60_000 };
    const granted = await store.tryAcquire(acquire);
    if (!granted.granted) throw new Error('expected a permit');
    const burst = Array.from({ length: 5_000 }, (_, n) => store.tryAcquire({ ...acquire, bucket: bucketName(`sk_live_burst_${n}`, 'mutations') }));
    const answeredAt = Date.now();
    const released = store.release(bucket, granted.permitId, 60_000);
    const waitStarted = performance.now();
    await released;
    const waitedMs = performance.now() - waitStarted;
    await Promise.all(burst);
    // Redis TIME and Date.now() read the same machine's clock.
    const recorded = Number(await client.zScore(permitKeys(keyPrefix, bucket).answered, granted.permitId));
    expect(waitedMs).toBeGreaterThan(200); // the release did wait behind the burst
    // Dated when its call was made, it counted from about the whole wait later (896 ms of a 900 ms
    // wait on a quiet machine). What is left is Redis's own queue of the calls ahead of it.
    expect(recorded - answeredAt).toBeLessThan(waitedMs / 4);
    expect(recorded).toBeGreaterThanOrEqual(answeredAt);
  });
});

describe('RedisPermitStore keeps a burst out of the client\'s command queue', () => {
  const redis = useRedisServer();
  const opened: { destroy(): void }[] = [];
  afterAll(() => {
    for (const client of opened) client.destroy();
  });

  it(`2,000 permit requests made at once reach a node-redis client at most ${MAX_CALLS_IN_FLIGHT} at a time, and are all answered`, async () => {
    const client = createClient({ url: redis().server.url });
    client.on('error', () => undefined);
    await client.connect();
    opened.push(client);
    let inFlight = 0;
    let most = 0;
    const evalSha = client.evalSha.bind(client);
    // Counts what the store hands the client (node-redis queues every command it is given).
    (client as { evalSha: unknown }).evalSha = async (...args: Parameters<typeof evalSha>) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      try {
        return await evalSha(...args);
      } finally {
        inFlight -= 1;
      }
    };
    const store = new RedisPermitStore(client, { keyPrefix: uniqueKeyPrefix() });
    const results = await Promise.all(
      Array.from({ length: 2_000 }, (_, n) => store.tryAcquire({ bucket: bucketName(`sk_live_burst_${n % 200}`, 'queries'), limit: 10, windowMs: 60_000, leaseMs: 30_000 })),
    );
    expect(results.filter((result) => result.granted)).toHaveLength(2_000);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(MAX_CALLS_IN_FLIGHT);
  });
});
