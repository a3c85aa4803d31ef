import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { Redis } from 'ioredis';
import { startRedisServer, type TestRedisServer } from '../support/redis-server.js';

/** The Redis server and clients of one test file. */
export interface RedisFixture {
  readonly server: TestRedisServer;
  /** Opens a client the fixture closes after the file's tests. */
  connect(): Redis;
}

/**
 * Starts a redis-server before the file's tests and stops it (and the clients opened with
 * `connect`) after them. Read the returned getter inside tests and hooks only.
 */
export function useRedisServer(): () => RedisFixture {
  let fixture: RedisFixture | undefined;
  const clients: Redis[] = [];
  beforeAll(async () => {
    const server = await startRedisServer();
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
