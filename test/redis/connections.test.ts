import { EventEmitter } from 'node:events';
import { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { createClient as createClient5 } from 'redis-v5';
import { DependencyLoadError, InvalidInputError, MemoryPermitStore } from '../../src/index.js';
import { clientForUrl } from '../../src/redis/connection/open-connection.js';
import { createRedisPermitStore, RedisPermitStore } from '../../src/redis/index.js';
import { uniqueKeyPrefix, useRedisServer } from './shared-redis.js';

const redis = useRedisServer();

/** What constructing the store threw (it must throw at once: nothing to await, nothing left running). */
function refusal(connection: unknown, options?: unknown): InvalidInputError {
  try {
    new RedisPermitStore(connection as never, options as never);
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error('expected the store to refuse the connection');
}

/**
 * A `Socket#connect` to Redis's default port (what ioredis and node-redis open without options).
 * `net.connect` passes its arguments normalized, as one array `[options, callback]`.
 */
function toRedisPort(argument: unknown): boolean {
  const options: unknown = Array.isArray(argument) ? argument[0] : argument;
  return typeof options === 'object' && options !== null && Number((options as { port?: unknown }).port) === 6379;
}

const ACCEPTED = /Pass an ioredis Redis or Cluster, a connected node-redis client or cluster \(createClient\(\) or createCluster\(\) of the redis package, after await client\.connect\(\)\), or a redis:\/\/ or rediss:\/\/ URL\./;

describe('RedisPermitStore refuses what is not a Redis client it can use: "an error naming what was passed and what is accepted"', () => {
  let connects: MockInstance<Socket['connect']>;
  beforeEach(() => {
    connects = vi.spyOn(Socket.prototype, 'connect');
  });
  afterEach(async () => {
    // c07ece8 took these for ioredis options and connected to 127.0.0.1:6379, again and again.
    // Only connections to Redis's port count: the spy sees every socket of the process, and the
    // fetches another test file left retrying (to https://school.test) may connect meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(connects.mock.calls.map(([options]) => options).filter(toRedisPort)).toEqual([]);
    connects.mockRestore();
  });

  it.each([
    ['ioredis options', { host: '127.0.0.1', port: 6379, password: 'hunter2-secret' }, 'a plain object (keys: host, port, password)'],
    ['node-redis options', { url: 'redis://:hunter2-secret@cache:6379' }, 'a plain object (keys: url)'],
    ['a Map', new Map([['host', '127.0.0.1']]), 'a Map'],
    ['undefined', undefined, 'undefined'],
    ['null', null, 'null'],
    ['a port number', 6379, 'a number'],
    ['an empty object', {}, 'an empty object'],
    ['a string that is not a Redis URL', 'cache.internal:6379', 'a string that is not a redis:// or rediss:// URL'],
    ['another object with events', new EventEmitter(), 'an EventEmitter'],
    ['the memory store', new MemoryPermitStore(), 'a MemoryPermitStore'],
    ['the createClient function itself', createClient, 'the function createClient (call it, and pass the client it makes)'],
  ])('%s: InvalidInputError { field: "connection" } at construction, naming it', (_name, connection, named) => {
    const error = refusal(connection);
    expect(error).toMatchObject({ name: 'InvalidInputError', field: 'connection', operation: 'RedisPermitStore', local: true });
    expect(error.message).toContain(`the connection is ${named}.`);
    expect(error.message).toMatch(ACCEPTED);
    expect(error.message).not.toContain('hunter2');
  });

  it('a Promise (a connect() not awaited): refused, naming it', () => {
    const pending = new Promise<never>(() => undefined);
    expect(refusal(pending).message).toContain('the connection is a Promise (await it, and pass the client it resolves to).');
  });
});

describe('closed and unopened connections are refused too', () => {
  it('an ioredis Redis after quit(), and one after disconnect(), as soon as it was called', async () => {
    const client = new Redis(redis().server.url);
    await client.ping();
    const quitting = client.quit();
    expect(refusal(client).message).toContain('the connection is an ioredis Redis whose connection has ended (quit() or disconnect() was called).');
    await quitting;
    const other = new Redis(redis().server.url);
    await other.ping();
    other.disconnect();
    expect(refusal(other).message).toContain('an ioredis Redis whose connection has ended');
  });

  it('an ioredis Cluster after disconnect()', () => {
    const cluster = new Cluster([{ host: '127.0.0.1', port: redis().server.port }], { lazyConnect: true });
    cluster.disconnect();
    expect(refusal(cluster).message).toContain('the connection is an ioredis Cluster whose connection has ended');
  });

  it.each([
    ['node-redis 6', () => createClient({ url: redis().server.url })],
    ['node-redis 5', () => createClient5({ url: redis().server.url })],
  ])('a %s client never connected, and one closed after use', async (_name, make) => {
    const client = make();
    client.on('error', () => undefined);
    expect(refusal(client).message).toContain('the connection is a node-redis client that is not open (never connected, or closed).');
    await client.connect();
    expect(() => new RedisPermitStore(client, { keyPrefix: uniqueKeyPrefix() })).not.toThrow();
    client.destroy();
    expect(refusal(client).message).toContain('a node-redis client that is not open');
  });

  it('a node-redis cluster never connected', () => {
    const cluster = createCluster({ rootNodes: [{ url: redis().server.url }] });
    expect(refusal(cluster).message).toContain('a node-redis client that is not open');
  });
});

describe('options are checked at construction', () => {
  const client = (): Redis => redis().connect();

  it.each([
    ['a keyPrefix that is not a string', { keyPrefix: 5 }, 'keyPrefix', 'keyPrefix must be a string, got a number.'],
    ["a keyPrefix with an empty hash tag '{}' (a bucket's keys would land on several cluster slots)", { keyPrefix: 'app{}:' }, 'keyPrefix', "keyPrefix holds an empty hash tag ('{}')"],
    ['a clock that is not a function', { clock: 1_000 }, 'clock', 'clock must be a function returning epoch milliseconds, got a number.'],
    ['options that are not an object', 'school-admin-sdk:', 'options', 'options must be an object (keyPrefix, clock).'],
  ])('%s: InvalidInputError naming the field', (_name, options, field, message) => {
    const error = refusal(client(), options);
    expect(error).toMatchObject({ field });
    expect(error.message).toContain(message);
  });

  it('createRedisPermitStore(url) refuses a string that is not a redis:// or rediss:// URL, without quoting it', () => {
    expect(() => createRedisPermitStore('cache:6379?password=hunter2')).toThrow(InvalidInputError);
    expect(() => createRedisPermitStore('cache:6379?password=hunter2')).toThrow(/^Failed to create the Redis permit store: the URL must start with redis:\/\/ or rediss:\/\/\. /);
  });
});

describe('clients made from a URL: ioredis when installed, else node-redis, else a clear error', () => {
  const notInstalled = (name: string): Error => Object.assign(new Error(`Cannot find module '${name}'\nRequire stack:\n- x.js`), { code: 'MODULE_NOT_FOUND' });

  it('neither installed: DependencyLoadError naming both packages and the install command', () => {
    const error: unknown = (() => {
      try {
        return clientForUrl('redis://127.0.0.1:1', (name) => {
          throw notInstalled(name);
        });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(DependencyLoadError);
    expect(error).toMatchObject({ dependency: 'ioredis', operation: 'createRedisPermitStore' });
    expect((error as Error).message).toBe(
      'Failed to create the Redis permit store from a URL: neither ioredis nor redis (node-redis) is installed. Run npm install ioredis (or npm install redis), or pass a client you made.',
    );
  });

  it('only redis installed: a node-redis client, opened at once, that the store can use', async () => {
    const load = async (): Promise<unknown> => import('redis');
    const nodeRedis = await load();
    const client = clientForUrl(redis().server.url, (name) => {
      if (name === 'ioredis') throw notInstalled(name);
      return nodeRedis;
    });
    expect(client).toMatchObject({ isOpen: true });
    const store = new RedisPermitStore(client, { keyPrefix: uniqueKeyPrefix() });
    expect((await store.tryAcquire({ bucket: 'b', limit: 1, windowMs: 1_000, leaseMs: 1_000 })).granted).toBe(true);
    await (client as unknown as { close(): Promise<void> }).close();
  });

  it('a package that is there but fails to load is reported as such, with its error code', () => {
    const broken = Object.assign(new Error("Cannot find module 'denque'"), { code: 'MODULE_NOT_FOUND' });
    expect(() =>
      clientForUrl('redis://127.0.0.1:1', () => {
        throw broken;
      }),
    ).toThrow(expect.objectContaining({ name: 'DependencyLoadError', dependency: 'ioredis', systemCode: 'MODULE_NOT_FOUND', message: expect.stringContaining("Failed to load ioredis for the Redis permit store: Cannot find module 'denque'. Reinstall it (npm install ioredis).") }));
  });
});
