import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startRedisServer, type TestRedisServer } from '../support/redis-server.js';
import { childEnvironment, runCommand, type CommandOutput } from '../package/support/run-command.js';
import { nodeAtLeast } from './support/runtimes.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const tarball = inject('tarball');
/** msw 3 and graphql 17 declare Node >= 22.12 (graphql 17: ^22 || ^24 || >= 26). */
const NODE_FOR_NEWEST = '22.12.0';
/** The app's own dependencies: the newest majors the SDK accepts, and ioredis 5, the oldest. */
const APP_DEPENDENCIES = { msw: '^3.0.0', graphql: '^17.0.0', ioredis: '^5.0.0' };

let dir: string;
let install: CommandOutput;
let redis: TestRedisServer;

interface NpmTree {
  dependencies?: Record<string, { version: string; dependencies?: NpmTree['dependencies'] }>;
}

beforeAll(async () => {
  dir = join(dirname(tarball), 'peer-majors-app');
  mkdirSync(dir);
  const manifest = { name: 'peer-majors-app', private: true, type: 'module', dependencies: { 'school-admin-sdk': `file:${tarball}`, ...APP_DEPENDENCIES } };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(fileURLToPath(new URL('fixtures/peer-majors-app.ts.txt', import.meta.url)), join(dir, 'app.mts'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2023', 'dom'],
        strict: true,
        typeRoots: [join(projectRoot, 'node_modules/@types')],
        types: ['node'],
        outDir: 'out',
      },
      include: ['*.mts'],
    }),
  );
  // A plain `npm install` from the registry, as the app's developer would run it (no lockfile).
  install = await runCommand('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir });
  redis = await startRedisServer();
}, 300_000);

afterAll(async () => {
  await redis?.stop();
});

describe('installing the packed SDK next to msw 3, ioredis 5 and graphql 17', () => {
  it('succeeds without ERESOLVE or an invalid peer (npm ls exits 0)', async () => {
    expect(`${install.stdout}\n${install.stderr}`).not.toMatch(/ERESOLVE|invalid|conflicting peer/i);
    const { stdout } = await runCommand('npm', ['ls', '--all', '--json'], { cwd: dir });
    const tree = JSON.parse(stdout) as NpmTree;
    expect(tree.dependencies?.['msw']?.version).toMatch(/^3\./);
    expect(tree.dependencies?.['ioredis']?.version).toMatch(/^5\./);
    expect(tree.dependencies?.['graphql']?.version).toMatch(/^17\./);
  });

  it('shares the app\'s graphql 17: no second graphql nested under the SDK, no graphql-request anywhere', async () => {
    const { stdout } = await runCommand('npm', ['ls', 'graphql', 'graphql-request', '--all', '--json'], { cwd: dir });
    const sdk = (JSON.parse(stdout) as NpmTree).dependencies?.['school-admin-sdk'];
    expect(existsSync(join(dir, 'node_modules/school-admin-sdk/node_modules/graphql'))).toBe(false);
    expect(sdk?.dependencies?.['graphql']?.version).toMatch(/^17\./);
    expect(stdout).not.toContain('graphql-request');
  });

  it('type-checks admin.request(parse(...)) with a graphql-17 DocumentNode, msw 3 handlers and an ioredis 5 store', async () => {
    await runCommand(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir });
    expect(readFileSync(join(dir, 'out/app.mjs'), 'utf8')).toContain("from 'school-admin-sdk'");
  });

  it('runs it: the graphql-17 document is sent, msw 3 intercepts a client made before listen(), ioredis 5 holds the permits', async () => {
    const node = nodeAtLeast(NODE_FOR_NEWEST);
    const { stdout } = await runCommand(node, ['out/app.mjs'], { cwd: dir, env: { ...childEnvironment(), REDIS_URL: redis.url } });
    expect(JSON.parse(stdout)).toEqual({
      graphqlVersion: expect.stringMatching(/^17\./),
      typename: 'Query',
      created: true,
      permitKeysInRedis: true,
      served: { mutations: 1, queries: 1 },
    });
  });
});
