import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { Redis } from 'ioredis';
import { locateRedisServer, type TestRedisTarget } from '../support/redis-lookup.js';
import { existingRedisServer, startRedisServer, type TestRedisServer } from '../support/redis-server.js';

/** The Redis server and clients of one test file. */
export interface RedisFixture {
  readonly server: TestRedisServer;
  /** Opens a client the fixture closes after the file's tests. */
  connect(): Redis;
}

/**
 * What the global set-up decided (test/support/redis-global-setup.ts); a run without it (another
 * config) looks for a binary itself and never installs one.
 */
function target(): TestRedisTarget {
  const provided = inject('testRedis') as TestRedisTarget | undefined;
  if (provided !== undefined) return provided;
  const found = locateRedisServer(process.env);
  return found === undefined ? { kind: 'missing', reason: 'redis-server is not installed' } : { kind: 'binary', path: found.path, provisioned: false };
}

/**
 * Starts a redis-server before the file's tests (or uses REDIS_URL's) and stops it, and the clients
 * opened with `connect`, after them. Without Redis every test of the file is skipped (the global
 * set-up prints why and how to fix it; under CI it fails the run instead). Read the returned
 * getter inside tests and hooks only.
 */
export function useRedisServer(): () => RedisFixture {
  const redis = target();
  if (redis.kind === 'missing') {
    beforeEach((context) => context.skip(`Redis unavailable: ${redis.reason}`));
    return () => {
      throw new Error(`Redis unavailable: ${redis.reason}`);
    };
  }
  let fixture: RedisFixture | undefined;
  const clients: Redis[] = [];
  beforeAll(async () => {
    const server = redis.kind === 'url' ? existingRedisServer(redis.url) : await startRedisServer({ binary: redis.path });
    fixture = {
      server,
      connect: () => {
        const client = new Redis(server.url);
        clients.push(client);
        return client;
      },
    };
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit()));
    await fixture?.server.stop();
  });
  return () => {
    if (fixture === undefined) throw new Error('the Redis server is not started: read the fixture inside a test or hook');
    return fixture;
  };
}

/** A key prefix no other test uses, so tests sharing a server never see each other's keys. */
export function uniqueKeyPrefix(): string {
  return `test-${randomUUID()}:`;
}

/** A redis-server of one test file that tests may crash and start again, empty, on the same port. */
export interface CrashableRedis {
  /** `redis://127.0.0.1:<port>`: the same across restarts. */
  readonly url: string;
  /** Kills the server (SIGKILL: a crash, no persistence) and starts it again empty after `outageMs`. */
  crash(outageMs: number): Promise<void>;
}

/**
 * Starts a redis-server of the file's own before its tests, one the tests may crash, and stops it
 * after them. Skipped without a redis-server binary, and with REDIS_URL (a server the tests did not
 * start cannot be crashed). Read the returned getter inside tests and hooks only.
 */
export function useCrashableRedis(): () => CrashableRedis {
  const redis = target();
  if (redis.kind !== 'binary') {
    const reason = redis.kind === 'missing' ? redis.reason : 'REDIS_URL points at a server these tests must not crash';
    beforeEach((context) => context.skip(`crashable Redis unavailable: ${reason}`));
    return () => {
      throw new Error(`crashable Redis unavailable: ${reason}`);
    };
  }
  let server: TestRedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer({ binary: redis.path });
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    const current = server;
    if (current === undefined) throw new Error('the Redis server is not started: read the fixture inside a test or hook');
    return {
      url: current.url,
      crash: async (outageMs) => {
        await current.kill();
        await sleep(outageMs);
        server = await startRedisServer({ binary: redis.path, port: current.port });
      },
    };
  };
}
