import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateRedisServer, MACHINE_IO, resolveTestRedis, type RedisLookupIo } from '../support/redis-lookup.js';
import { startRedisServer, type TestRedisServer } from '../support/redis-server.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE_CONFIG = 'test/setup/fixtures/redis-fixture.config.ts';

let dir: string;
let realRedis: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'redis-setup-'));
  const found = locateRedisServer({ PATH: process.env['PATH'] ?? '' });
  if (found === undefined) throw new Error('these tests fake a missing redis-server; they need a real one to link to (the global set-up installs it)');
  realRedis = found.path;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A machine as a test wants it: a directory to search (empty, or with redis-server), and a fake apt-get on PATH. */
async function fakeMachine(name: string, options: { redisInstalled: boolean; aptGetExit?: number }) {
  const searchDir = join(dir, `${name}-search`);
  const binDir = join(dir, `${name}-bin`);
  const aptLog = join(dir, `${name}-apt.log`);
  await Promise.all([mkdir(searchDir), mkdir(binDir)]);
  if (options.redisInstalled) await symlink(realRedis, join(searchDir, 'redis-server'));
  // The fake apt-get logs its arguments and "installs" redis-server by linking the real one into the searched directory.
  const aptGet = join(binDir, 'apt-get');
  await writeFile(
    aptGet,
    `#!/bin/sh\necho "$@" >> '${aptLog}'\nif [ "$1" = install ]; then ${options.aptGetExit ? `echo 'E: Unable to locate package redis-server' >&2; exit ${options.aptGetExit}` : `ln -sf '${realRedis}' '${searchDir}/redis-server'`}; fi\nexit 0\n`,
  );
  await chmod(aptGet, 0o755);
  const env = { PATH: `${binDir}${delimiter}${process.env['PATH'] ?? ''}`, HOME: process.env['HOME'] ?? '', TEST_REDIS_SEARCH_PATH: searchDir };
  return { env, searchDir, aptCalls: async () => (await readFile(aptLog, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean) };
}

/** The machine, but as root or without any privilege, and with the announcements kept. */
function io(options: { root: boolean }): RedisLookupIo & { announced: string[] } {
  const announced: string[] = [];
  return { ...MACHINE_IO, privilege: async () => (options.root ? 'root' : 'none'), announce: (line) => announced.push(line), announced };
}

describe('the Redis set-up finds redis-server', () => {
  it('found: a redis-server on the search path is used and nothing is installed', async () => {
    const machine = await fakeMachine('found', { redisInstalled: true });
    const probe = io({ root: true });
    expect(await resolveTestRedis(machine.env, probe)).toEqual({ kind: 'binary', path: join(machine.searchDir, 'redis-server'), provisioned: false });
    expect(probe.announced).toEqual([]);
    expect(await machine.aptCalls()).toEqual([]);
  });

  it('REDIS_URL: an existing server is used as is; one that does not answer fails loudly instead of skipping', async () => {
    let server: TestRedisServer | undefined;
    try {
      server = await startRedisServer({ binary: realRedis });
      const machine = await fakeMachine('url', { redisInstalled: false });
      expect(await resolveTestRedis({ ...machine.env, REDIS_URL: server.url }, io({ root: true }))).toEqual({ kind: 'url', url: server.url });
      const { url } = server;
      await server.stop();
      await expect(resolveTestRedis({ ...machine.env, REDIS_URL: url }, io({ root: true }))).rejects.toThrow(`${url} does not answer PING`);
      expect(await machine.aptCalls()).toEqual([]);
    } finally {
      await server?.stop();
    }
  });
});

describe('the Redis set-up provisions redis-server where it can (root and apt-get), announced in one line', () => {
  it('provisioned: apt-get update, then apt-get install -y redis-server; the installed binary is used', async () => {
    const machine = await fakeMachine('provision', { redisInstalled: false });
    const probe = io({ root: true });
    expect(await resolveTestRedis(machine.env, probe)).toEqual({ kind: 'binary', path: join(machine.searchDir, 'redis-server'), provisioned: true });
    expect(probe.announced).toHaveLength(1);
    expect(probe.announced[0]).toMatch(/^Redis tests: redis-server is not installed; installing it with apt-get/u);
    expect(await machine.aptCalls()).toEqual(['update -qq', 'install -y -qq --no-install-recommends redis-server']);
  });

  it.each([
    ['neither root nor passwordless sudo', { root: false }, {}, 'the tests run neither as root nor with passwordless sudo'],
    ['TEST_REDIS_PROVISION=off', { root: true }, { TEST_REDIS_PROVISION: 'off' }, 'TEST_REDIS_PROVISION=off forbids installing it'],
  ])('missing when it cannot install (%s): nothing is run, the reason is given', async (_name, root, extraEnv, reason) => {
    const machine = await fakeMachine(`cannot-${root.root}-${Object.keys(extraEnv).length}`, { redisInstalled: false });
    const result = await resolveTestRedis({ ...machine.env, ...extraEnv }, io(root));
    expect(result.kind).toBe('missing');
    expect(result.kind === 'missing' && result.reason).toContain(reason);
    expect(await machine.aptCalls()).toEqual([]);
  });

  it('missing when apt-get fails: the reason quotes the failing step and its last output', async () => {
    const machine = await fakeMachine('apt-fails', { redisInstalled: false, aptGetExit: 100 });
    const result = await resolveTestRedis(machine.env, io({ root: true }));
    expect(result).toEqual({ kind: 'missing', reason: expect.stringContaining('apt-get install redis-server failed (exit 100): E: Unable to locate package redis-server') });
  });
});

/** Runs the real global set-up and a one-test Redis suite in a vitest child process. */
function runRedisSuite(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', FIXTURE_CONFIG], {
      cwd: REPO,
      env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.concurrent('a vitest run of a Redis suite (the real global set-up, in a child process)', () => {
  it('without Redis and unable to install it, the suite is skipped with a loud notice naming the remedy, at the start and at the end', { timeout: 60_000 }, async () => {
    const machine = await fakeMachine('e2e-skip', { redisInstalled: false });
    const run = await runRedisSuite({ ...machine.env, TEST_REDIS_PROVISION: 'off' });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/Tests +1 skipped/u);
    expect(run.output.match(/Redis tests SKIPPED/gu)).toHaveLength(2);
    expect(run.output).toContain('To run them: install redis-server (Debian/Ubuntu: sudo apt-get install -y redis-server');
    expect(run.output).toContain('REDIS_URL=redis://127.0.0.1:6379 npm test');
  });

  it('with CI=true, a missing Redis fails the run (never skips)', { timeout: 60_000 }, async () => {
    const machine = await fakeMachine('e2e-ci', { redisInstalled: false });
    const run = await runRedisSuite({ ...machine.env, TEST_REDIS_PROVISION: 'off', CI: 'true' });
    expect(run.code).not.toBe(0);
    expect(run.output).toContain('Failed to set up the Redis tests: redis-server is not installed');
    expect(run.output).toContain('CI must run them, so this fails instead of skipping');
    expect(run.output).not.toMatch(/Tests +1 (passed|skipped)/u);
  });

  it('as root with apt-get, redis-server is installed (one line says so) and the suite passes against it', { timeout: 60_000 }, async () => {
    const machine = await fakeMachine('e2e-provision', { redisInstalled: false });
    const run = await runRedisSuite({ ...machine.env, CI: 'true' });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/Tests +1 passed/u);
    expect(run.output.match(/installing it with apt-get/gu)).toHaveLength(1);
    expect(await machine.aptCalls()).toEqual(['update -qq', 'install -y -qq --no-install-recommends redis-server']);
  });
});
