import { createRequire } from 'node:module';
import { DependencyLoadError } from '../../errors/dependency-load-error.js';
import { InvalidInputError } from '../../errors/invalid-input-error.js';
import type { RedisConnection } from './accepted-clients.js';
import { CallsInFlight } from './calls-in-flight.js';
import { IoredisScriptConnection, isIoredis } from './ioredis-connection.js';
import { isNodeRedis, NodeRedisScriptConnection } from './node-redis-connection.js';
import { passedValue } from './passed-value.js';
import type { ScriptConnection } from './script-connection.js';

const ACCEPTED =
  'Pass an ioredis Redis or Cluster, a connected node-redis client or cluster (createClient() or createCluster() of the redis package, after await client.connect()), or a redis:// or rediss:// URL';

/** True for a URL the store opens a connection to. */
export function isRedisUrl(value: unknown): value is string {
  return typeof value === 'string' && /^rediss?:\/\/./i.test(value);
}

/**
 * The store's scripts on `client`, after checking that it is a Redis client the store can use.
 *
 * @throws {InvalidInputError} `field: 'connection'` for anything else (a plain object, a Map,
 *   options, undefined, another library's client), for an ioredis client whose connection ended,
 *   and for a node-redis client that is not open; the message names what was passed.
 */
export function scriptConnectionFor(client: unknown): ScriptConnection {
  if (typeof client === 'object' && client !== null) {
    if (isIoredis(client)) {
      // `manuallyClosing`: quit() or disconnect() was called; the status says 'end' only once the socket closed.
      if (client.status === 'end' || (client as { manuallyClosing?: unknown }).manuallyClosing === true) throw refused(`an ioredis ${client.isCluster ? 'Cluster' : 'Redis'} whose connection has ended (quit() or disconnect() was called)`);
      return new CallsInFlight(new IoredisScriptConnection(client));
    }
    if (isNodeRedis(client)) {
      if (!client.isOpen) throw refused('a node-redis client that is not open (never connected, or closed)');
      return new CallsInFlight(new NodeRedisScriptConnection(client));
    }
  }
  throw refused(passedValue(client));
}

function refused(what: string): InvalidInputError {
  return new InvalidInputError(`Failed to create RedisPermitStore: the connection is ${what}. ${ACCEPTED}.`, { operation: 'RedisPermitStore', field: 'connection' });
}

/** Loads an optional peer package synchronously; tests pass their own. */
export type PackageLoader = (name: 'ioredis' | 'redis') => unknown;

const requireFromHere = createRequire(import.meta.url);
const loadInstalled: PackageLoader = (name) => requireFromHere(name);

/**
 * A client connected to `url`, made with ioredis when it is installed, else with node-redis (the
 * `redis` package). A node-redis client made here has an 'error' listener (node-redis throws its
 * connection errors otherwise): failures reach the store's calls.
 *
 * @throws {DependencyLoadError} when neither package is installed (or one fails to load).
 */
export function clientForUrl(url: string, load: PackageLoader = loadInstalled): RedisConnection {
  const ioredis = loadOptional('ioredis', load) as { Redis: new (url: string) => RedisConnection } | undefined;
  if (ioredis !== undefined) return new ioredis.Redis(url);
  const nodeRedis = loadOptional('redis', load) as { createClient(options: { url: string }): RedisConnection & NodeRedisConnecting } | undefined;
  if (nodeRedis !== undefined) {
    const client = nodeRedis.createClient({ url });
    client.on('error', () => undefined);
    // Open now (commands queue until it is ready); a connection that fails is retried by node-redis.
    client.connect().catch(() => undefined);
    return client;
  }
  throw new DependencyLoadError(
    'Failed to create the Redis permit store from a URL: neither ioredis nor redis (node-redis) is installed. Run npm install ioredis (or npm install redis), or pass a client you made.',
    { operation: 'createRedisPermitStore', dependency: 'ioredis', systemCode: undefined },
  );
}

/** What the URL path calls on a node-redis client it made. */
interface NodeRedisConnecting {
  on(event: 'error', listener: () => void): unknown;
  connect(): Promise<unknown>;
}

/** The package, or undefined when it is not installed; a package that is there but fails to load throws. */
function loadOptional(name: 'ioredis' | 'redis', load: PackageLoader): unknown {
  try {
    return load(name);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // Not installed: the package itself is missing, not one of its own dependencies.
    if ((code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && error instanceof Error && error.message.includes(`'${name}'`)) return undefined;
    throw new DependencyLoadError(`Failed to load ${name} for the Redis permit store: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}. Reinstall it (npm install ${name}).`, {
      operation: 'createRedisPermitStore',
      dependency: name,
      systemCode: typeof code === 'string' ? code : undefined,
      cause: error,
    });
  }
}
