import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createConnection } from 'node:net';
import { delimiter, dirname, join } from 'node:path';

/**
 * Where the Redis tests get their server: an existing one (`REDIS_URL`), a redis-server binary
 * found (or just installed), or none (the Redis suites are skipped, or fail under CI).
 */
export type TestRedisTarget =
  | { kind: 'url'; url: string }
  | { kind: 'binary'; path: string; provisioned: boolean }
  | { kind: 'missing'; reason: string };

/**
 * The environment variables the set-up reads.
 * - `REDIS_URL`: use this running server instead of starting one (e.g. `redis://127.0.0.1:6379`).
 * - `TEST_REDIS_SEARCH_PATH`: directories (PATH syntax) searched for `redis-server` instead of PATH
 *   and the usual system directories; lets a test pretend redis-server is missing.
 * - `TEST_REDIS_PROVISION`: `off` never installs redis-server; by default it is installed with
 *   apt-get when the tests run as root (or with passwordless sudo) on a machine with apt-get.
 * - `CI`: when set (and not `false`/`0`), a missing Redis fails the run instead of skipping.
 */
export const REDIS_ENV = Object.freeze({ url: 'REDIS_URL', searchPath: 'TEST_REDIS_SEARCH_PATH', provision: 'TEST_REDIS_PROVISION', ci: 'CI' });

/** What a developer can do about a missing Redis, in one sentence. */
export const REDIS_REMEDY =
  'Install redis-server (Debian/Ubuntu: sudo apt-get install -y redis-server; macOS: brew install redis) or point REDIS_URL at a running server (REDIS_URL=redis://127.0.0.1:6379 npm test).';

/** Searched after PATH: where package managers put redis-server when PATH lacks it (a cron or CI shell). */
const SYSTEM_DIRS = ['/usr/bin', '/usr/local/bin', '/usr/sbin', '/opt/homebrew/bin', '/snap/bin'];

/** What {@link resolveTestRedis} needs from the machine (tests replace it). */
export interface RedisLookupIo {
  /** Prints the one line that says Redis is being installed. */
  announce(line: string): void;
  /** How the process may install system packages: as root, through passwordless sudo, or not at all. */
  privilege(): Promise<'root' | 'sudo' | 'none'>;
  /** Runs a command to completion; resolves with its exit code and the end of its output. */
  run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }>;
  /** True when a Redis server answers PING at `url`. */
  answers(url: string): Promise<boolean>;
}

function executableIn(dirs: readonly string[], name: string): string | undefined {
  for (const dir of dirs) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; try the next place.
    }
  }
  return undefined;
}

function searchDirs(env: NodeJS.ProcessEnv): string[] {
  const override = env[REDIS_ENV.searchPath];
  if (override !== undefined) return override.split(delimiter).filter(Boolean);
  return [...(env['PATH'] ?? '').split(delimiter).filter(Boolean), ...SYSTEM_DIRS];
}

/** The redis-server binary the tests would start, or undefined (honours `TEST_REDIS_SEARCH_PATH`). */
export function locateRedisServer(env: NodeJS.ProcessEnv): { path: string } | undefined {
  const path = executableIn(searchDirs(env), 'redis-server');
  return path === undefined ? undefined : { path };
}

/**
 * The redis-cli binary beside redis-server (Debian's redis-server package brings it, through
 * redis-tools), else the first on the search path: the cluster tests create their cluster with it.
 */
export function locateRedisCli(env: NodeJS.ProcessEnv, serverPath: string): { path: string } | undefined {
  const path = executableIn([dirname(serverPath), ...searchDirs(env)], 'redis-cli');
  return path === undefined ? undefined : { path };
}

/** True when `CI` says this is a CI run: a missing Redis must fail there, not skip. */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  const value = env[REDIS_ENV.ci];
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/**
 * Decides where the Redis tests get their server, installing redis-server when it can:
 * 1. `REDIS_URL` set: that server (it must answer PING, else this throws: the developer asked for it);
 * 2. a redis-server binary on the search path;
 * 3. with apt-get, as root or through passwordless sudo (unless `TEST_REDIS_PROVISION=off`):
 *    `apt-get install redis-server`, announced in one line, then the search again;
 * 4. otherwise `missing`, with the reason.
 */
export async function resolveTestRedis(env: NodeJS.ProcessEnv, io: RedisLookupIo = MACHINE_IO): Promise<TestRedisTarget> {
  const url = env[REDIS_ENV.url];
  if (url !== undefined && url !== '') {
    if (await io.answers(url)) return { kind: 'url', url };
    throw new Error(`Failed to use REDIS_URL for the Redis tests: ${url} does not answer PING. Start that server, or unset REDIS_URL to let the tests start their own redis-server.`);
  }
  const found = locateRedisServer(env);
  if (found !== undefined) return { kind: 'binary', path: found.path, provisioned: false };

  const looked = env[REDIS_ENV.searchPath] === undefined ? 'PATH and /usr/bin, /usr/local/bin' : `${REDIS_ENV.searchPath}=${env[REDIS_ENV.searchPath]}`;
  const notFound = `redis-server is not installed (looked in ${looked})`;
  if (env[REDIS_ENV.provision] === 'off') return { kind: 'missing', reason: `${notFound}; ${REDIS_ENV.provision}=off forbids installing it` };
  const aptGet = executableIn((env['PATH'] ?? '').split(delimiter).filter(Boolean), 'apt-get');
  if (aptGet === undefined) return { kind: 'missing', reason: `${notFound}, and there is no apt-get to install it with` };
  const privilege = await io.privilege();
  if (privilege === 'none') return { kind: 'missing', reason: `${notFound}, and the tests run neither as root nor with passwordless sudo, so they cannot install it` };

  io.announce(`Redis tests: redis-server is not installed; installing it with apt-get (${privilege === 'root' ? 'running as root' : 'through sudo'}; about 30 s) ...`);
  const apt = (args: string[]): Promise<{ code: number | null; output: string }> =>
    privilege === 'root'
      ? io.run(aptGet, args, { ...env, DEBIAN_FRONTEND: 'noninteractive' })
      : io.run('sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', aptGet, ...args], env);
  const update = await apt(['update', '-qq']);
  const install = update.code === 0 ? await apt(['install', '-y', '-qq', '--no-install-recommends', 'redis-server']) : update;
  const installed = locateRedisServer(env);
  if (install.code === 0 && installed !== undefined) return { kind: 'binary', path: installed.path, provisioned: true };
  const step = update.code === 0 ? 'apt-get install redis-server' : 'apt-get update';
  return { kind: 'missing', reason: `${notFound}, and ${step} failed (exit ${install.code ?? 'by signal'}): ${install.output.trim().split('\n').slice(-3).join(' / ') || 'no output'}` };
}

/** The loud notice printed when the Redis suites are skipped (at the start and again at the end of the run). */
export function skippedNotice(reason: string): string {
  const rule = '!'.repeat(78);
  return [
    rule,
    '!! Redis tests SKIPPED (test/redis): the shared rate-limit store was NOT tested.',
    `!! Why: ${reason}.`,
    `!! To run them: ${REDIS_REMEDY.charAt(0).toLowerCase()}${REDIS_REMEDY.slice(1)}`,
    '!! Under CI (CI=true) a missing Redis fails the run instead.',
    rule,
    '',
  ].join('\n');
}

/** The error that fails a CI run without Redis. */
export function ciFailure(reason: string): Error {
  return new Error(`Failed to set up the Redis tests: ${reason}. CI must run them, so this fails instead of skipping. ${REDIS_REMEDY}`);
}

/** The real machine: stderr, the process's uid, child processes and TCP. */
export const MACHINE_IO: RedisLookupIo = {
  announce: (line) => {
    process.stderr.write(`${line}\n`);
  },
  privilege: async () => {
    if (process.getuid?.() === 0) return 'root';
    const sudo = await MACHINE_IO.run('sudo', ['-n', 'true'], process.env);
    return sudo.code === 0 ? 'sudo' : 'none';
  },
  run: (command, args, env) =>
    new Promise((resolve) => {
      const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const keep = (chunk: Buffer): void => {
        output = (output + chunk.toString()).slice(-4_000);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.once('error', (error) => resolve({ code: -1, output: error.message }));
      child.once('close', (code) => resolve({ code, output }));
    }),
  answers: (url) => {
    const parsed = new URL(url);
    return answersPing({ host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 6379) });
  },
};

/** True when a Redis server at `host:port` answers PING within a second (a server that wants a password counts: it is there). */
export async function answersPing(address: { host: string; port: number }): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(address);
    let reply = '';
    const finish = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG') || reply.startsWith('-NOAUTH'));
    });
  });
}
