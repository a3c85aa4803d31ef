/*
 * The Redis clients RedisPermitStore accepts, by shape: the store never imports ioredis or redis
 * (node-redis) to recognise them, so an app installs only the one it uses, and these declarations
 * name neither package (a TypeScript project without one of them still compiles).
 */

/** An event listener of any arguments, compared bivariantly (the clients type theirs with `any`). */
type Listener = { listener(...args: unknown[]): void }['listener'];

/**
 * An ioredis `Redis` or `Cluster` (ioredis 5 or 6), open or not yet connected (`lazyConnect`); one
 * whose connection ended (`quit()`, `disconnect()`) is refused.
 */
export interface IoredisConnection {
  /** `false` for `Redis`, `true` for `Cluster`. */
  readonly isCluster: boolean;
  /** ioredis's connection status (`'wait'`, `'connecting'`, `'ready'`, ..., `'end'`). */
  readonly status: string;
  /** Runs a loaded script (the store's only command); any signature, so ioredis's overloads stay assignable. */
  evalsha: (...args: never[]) => unknown;
  /** Both libraries' clients are event emitters (`client.on('error', ...)`). */
  on(event: string, listener: Listener): unknown;
}

/**
 * A node-redis client (`createClient()` of the `redis` package, 5 or 6) or cluster
 * (`createCluster()`), connected: `await client.connect()` before passing it.
 */
export interface NodeRedisConnection {
  /** True once `connect()` was called, until the client is closed. */
  readonly isOpen: boolean;
  /** Runs a loaded script (the store's only command); any signature, so node-redis's overloads stay assignable. */
  evalSha: (...args: never[]) => unknown;
  /** Both libraries' clients are event emitters (`client.on('error', ...)`). */
  on(event: string, listener: Listener): unknown;
}

/**
 * What {@link RedisPermitStore} runs its scripts on: an ioredis `Redis` or `Cluster`, or a
 * node-redis client or cluster. Anything else is refused when the store is created, with an
 * `InvalidInputError` that names what was passed.
 */
export type RedisConnection = IoredisConnection | NodeRedisConnection;
