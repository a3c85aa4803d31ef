import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsumerProject, type ConsumerProject } from './support/consumer-project.js';
import { describeLoadedModules } from './support/loaded-modules.js';
import { buildAndPack, type PackedPackage } from './support/packed-package.js';
import { childEnvironment, runCommand } from './support/run-command.js';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail, startMockServer } from '../../src/testing/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const projectRoot = join(here, '../..');
const fixtures = join(here, 'fixtures');

/** Code that importing the main entry must not load (public-api.md: "Package and entry points"). */
const OPTIONAL_SOURCE_DIRS = /^src\/(testing|redis|cli|scheduling|webhooks|otel)\//;
const PACKAGES_NOT_LOADED_BY_IMPORT = ['ioredis', 'msw', 'temporal-polyfill', 'commander', 'csv-parse', 'csv-stringify', 'bottleneck', 'p-retry', '@opentelemetry/api'];
/** Packages only the `school-admin` bin uses: bundled into it, never installed with the library. */
const CLI_ONLY_PACKAGES = ['commander', 'csv-parse', 'csv-stringify'];
/** The conditions a worker bundler resolves with (wrangler's for workerd). */
const WORKER_CONDITIONS = ['workerd', 'worker', 'browser'];

const EXPORTED_SUBPATHS = ['.', './testing', './testing/msw', './redis', './scheduling', './webhooks', './otel', './package.json'];
/** Tests that start processes (tsc, node, attw) on a shared 2-core machine. */
const PROCESS_TIMEOUT_MS = 120_000;

let workDir: string;
let packed: PackedPackage;
let esm: ConsumerProject;
let cjs: ConsumerProject;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'school-admin-sdk-package-'));
  packed = await buildAndPack(projectRoot, workDir);
  esm = await createConsumerProject(projectRoot, workDir, 'esm-consumer', 'module', packed);
  cjs = await createConsumerProject(projectRoot, workDir, 'cjs-consumer', 'commonjs', packed);
  const app = readFileSync(join(fixtures, 'consumer-app.ts.txt'), 'utf8');
  esm.write('app.mts', app);
  cjs.write('app.cts', app);
  for (const probe of ['loaded-modules-esm.mjs', 'loaded-modules-hooks.mjs', 'loaded-modules-cjs.cjs']) {
    copyFileSync(join(fixtures, probe), join(esm.dir, probe));
    copyFileSync(join(fixtures, probe), join(cjs.dir, probe));
  }
}, 300_000);

afterAll(() => {
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
});

describe('the tarball (npm pack) ships only what an integrator needs', () => {
  it('contains dist JavaScript and declarations, the docs/ pages and the pictures they show, package.json, README.md, CHANGELOG.md and LICENSE, nothing else', () => {
    const unexpected = packed.files.filter(
      (file) => !/^dist\/.+\.(js|cjs|d\.ts|d\.cts)$/.test(file) && !/^docs\/[a-z-]+\.md$/.test(file) && !/^docs\/images\/[a-z0-9-]+\.(png|svg|json)$/.test(file) && !['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE'].includes(file),
    );
    expect(unexpected).toEqual([]);
    expect(packed.files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']));
  });

  it('contains every file that exports, main, module, types and bin point to', () => {
    const { manifest } = packed;
    const targets = Object.values(manifest.exports).flatMap((target) =>
      typeof target === 'string' ? [target] : Object.values(target).flatMap((condition) => [condition.types, condition.default]),
    );
    targets.push(String(manifest['main']), String(manifest['module']), String(manifest['types']), ...Object.values(manifest.bin));
    targets.push(...Object.values(manifest.typesVersions['*'] ?? {}).flat(), ...leaves(manifest.imports));
    expect(targets.map((target) => target.replace(/^\.\//, '')).filter((file) => !packed.files.includes(file))).toEqual([]);
    expect(Object.keys(manifest.exports)).toEqual(EXPORTED_SUBPATHS);
  });

  it('keeps the bin ESM with its shebang', () => {
    expect(packed.manifest.bin).toEqual({ 'school-admin': './dist/cli/main.js' });
    const bin = readFileSync(join(workDir, 'source/dist/cli/main.js'), 'utf8');
    expect(bin.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(bin).toMatch(/^import /m);
  });
});

describe('publint and @arethetypeswrong/cli', () => {
  it('publint (strict, every level) reports nothing for the tarball', async () => {
    const tarball = readFileSync(packed.tarball);
    const { messages, pkg } = await publint({ pack: { tarball: new Uint8Array(tarball).buffer }, strict: true, level: 'suggestion' });
    expect(messages.map((message) => formatMessage(message, pkg, { color: false }))).toEqual([]);
  });

  it('attw finds no problem in any entry under node10, node16 (CJS and ESM) and bundler resolution', async () => {
    const attw = join(projectRoot, 'node_modules/.bin/attw');
    const { stdout } = await runCommand(attw, [packed.tarball, '--format', 'json'], { cwd: workDir });
    const report = JSON.parse(stdout) as { analysis: { entrypoints: Record<string, unknown>; problems: Array<{ kind: string; entrypoint?: string; resolutionKind?: string }> } };
    expect(Object.keys(report.analysis.entrypoints)).toEqual(EXPORTED_SUBPATHS);
    // node10 (TypeScript's moduleResolution "node") ignores `exports`: typesVersions shows it the subpaths' types.
    expect(report.analysis.problems).toEqual([]);
  }, PROCESS_TIMEOUT_MS);
});

describe('ESM and CommonJS consumer projects install the tarball and call the simulator through the client', () => {
  const expectedReport = () => ({
    version: packed.manifest.version,
    coupon: { name: 'Packaged', couponType: 'percentage', amount: 15 },
    revoke: { isCodedError: true, code: 'COUPON-004' },
    zoneErrorIsAdminApiError: true,
    // The header, the run and its budget, the grant's request as it left and its answer (issue 30: a resumed run counts them), the member's outcome.
    journal: { created: 1, records: ['header', 'run', 'budget', 'sent', 'answered', 'outcome'], mismatchIsJournalMismatchError: true },
    mutationsServed: 3,
  });

  it('type-checks an integrator program against the packed types, as ESM (.d.ts) and as CommonJS (.d.cts)', async () => {
    await esm.tsc();
    await cjs.tsc();
    expect(readFileSync(join(cjs.dir, 'out/app.cjs'), 'utf8')).toContain("require(\"school-admin-sdk\")");
    expect(readFileSync(join(esm.dir, 'out/app.mjs'), 'utf8')).toContain("from 'school-admin-sdk'");
  }, PROCESS_TIMEOUT_MS);

  it('runs it with import (ESM build): coupon created, coded error parsed, one AdminApiError class across entries and the journal', async () => {
    const { stdout } = await esm.node(['out/app.mjs']);
    expect(JSON.parse(stdout)).toEqual(expectedReport());
  }, PROCESS_TIMEOUT_MS);

  it('runs it with require (CJS build): the lazy import() of bottleneck and p-retry works from CommonJS, #journal gives the CJS journal', async () => {
    const { stdout } = await cjs.node(['out/app.cjs']);
    expect(JSON.parse(stdout)).toEqual(expectedReport());
  }, PROCESS_TIMEOUT_MS);

  it('installs the school-admin bin, which runs as an executable', async () => {
    const { stdout } = await runCommand(join(esm.dir, 'node_modules/.bin/school-admin'), ['--version'], { cwd: esm.dir });
    expect(stdout.trim()).toBe(packed.manifest.version);
  }, PROCESS_TIMEOUT_MS);
});

describe('importing school-admin-sdk in a fresh process', () => {
  const loadedBy = async (consumer: ConsumerProject, probe: string, specifier: string, format: 'esm' | 'cjs') => {
    const { stdout } = await consumer.node([probe, specifier]);
    return describeLoadedModules(JSON.parse(stdout) as string[], packed.metafiles[format]);
  };

  for (const [format, probe] of [['esm', 'loaded-modules-esm.mjs'], ['cjs', 'loaded-modules-cjs.cjs']] as const) {
    it(`loads no simulator, Redis, CLI or time-zone module, and no optional package (${format})`, async () => {
      const loaded = await loadedBy(format === 'esm' ? esm : cjs, probe, 'school-admin-sdk', format);
      expect(loaded.sdkSources).toContain('src/client/facade/admin-client.ts');
      expect(loaded.sdkSources.filter((source) => OPTIONAL_SOURCE_DIRS.test(source) || !source.startsWith('src/'))).toEqual([]);
      // graphql for its printer (a DocumentNode without its text); no GraphQL client library.
      expect(loaded.packages).toContain('graphql');
      expect(loaded.packages).not.toContain('graphql-request');
      expect(loaded.packages.filter((name) => PACKAGES_NOT_LOADED_BY_IMPORT.includes(name))).toEqual([]);
    }, PROCESS_TIMEOUT_MS);

    it(`sees the simulator when school-admin-sdk/testing is imported (${format}: the probe can tell)`, async () => {
      const loaded = await loadedBy(format === 'esm' ? esm : cjs, probe, 'school-admin-sdk/testing', format);
      expect(loaded.sdkSources).toContain('src/testing/simulator.ts');
    }, PROCESS_TIMEOUT_MS);
  }
});

describe('school-admin-sdk/redis in a project with neither ioredis nor redis installed (both optional peers)', () => {
  const probe = (load: string) => `${load}
const report = {};
try { new RedisPermitStore(new Map()); } catch (error) { report.map = { isInvalidInputError: error instanceof InvalidInputError, field: error.field }; }
try { createRedisPermitStore('redis://127.0.0.1:1'); } catch (error) { report.url = { isDependencyLoadError: error instanceof DependencyLoadError, message: error.message }; }
console.log(JSON.stringify(report));
`;
  const expected = {
    map: { isInvalidInputError: true, field: 'connection' },
    url: {
      isDependencyLoadError: true,
      message: 'Failed to create the Redis permit store from a URL: neither ioredis nor redis (node-redis) is installed. Run npm install ioredis (or npm install redis), or pass a client you made.',
    },
  };

  it('loads (ESM): a Map is refused with the main entry\'s InvalidInputError, a URL with DependencyLoadError naming both packages', async () => {
    esm.write('redis-peers.mjs', probe("import { RedisPermitStore, createRedisPermitStore } from 'school-admin-sdk/redis';\nimport { DependencyLoadError, InvalidInputError } from 'school-admin-sdk';"));
    const { stdout } = await esm.node(['redis-peers.mjs']);
    expect(JSON.parse(stdout)).toEqual(expected);
  }, PROCESS_TIMEOUT_MS);

  it('loads (CJS): the same', async () => {
    cjs.write('redis-peers.cjs', probe("const { RedisPermitStore, createRedisPermitStore } = require('school-admin-sdk/redis');\nconst { DependencyLoadError, InvalidInputError } = require('school-admin-sdk');"));
    const { stdout } = await cjs.node(['redis-peers.cjs']);
    expect(JSON.parse(stdout)).toEqual(expected);
  }, PROCESS_TIMEOUT_MS);
});

describe('engines.node ">=20.19" is honest', () => {
  it('every package the SDK installs at run time accepts Node 20.19.0', () => {
    expect(packed.manifest.engines.node).toBe('>=20.19');
    const lock = JSON.parse(readFileSync(join(esm.dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } }> };
    const refusing = Object.entries(lock.packages)
      .filter(([, entry]) => entry.engines?.node !== undefined && !semver.satisfies('20.19.0', entry.engines.node))
      .map(([location, entry]) => `${location} (${entry.engines?.node})`);
    expect(refusing).toEqual([]);
    expect(Object.keys(lock.packages)).toEqual(expect.arrayContaining(['node_modules/graphql', 'node_modules/p-retry']));
    // No GraphQL client library: the transport is a fetch POST of its own.
    expect(Object.keys(lock.packages).filter((location) => location.endsWith('node_modules/graphql-request'))).toEqual([]);
  });
});

describe('package.json metadata for the registry page', () => {
  it('names the repository, homepage, issue tracker and keywords', () => {
    const { manifest } = packed;
    expect(manifest['repository']).toEqual({ type: 'git', url: 'git+https://github.com/school-platform/school-admin-sdk.git' });
    expect(manifest['homepage']).toBe('https://github.com/school-platform/school-admin-sdk#readme');
    expect(manifest['bugs']).toEqual({ url: 'https://github.com/school-platform/school-admin-sdk/issues' });
    expect(manifest['keywords']).toEqual(expect.arrayContaining(['graphql', 'sdk', 'cloudflare-workers', 'deno', 'bun']));
  });
});

describe('dependency ranges accept the current majors', () => {
  it('caret ranges, no exact pins; msw 2 or 3, ioredis 5 or 6, redis 5 or 6, graphql 16 or 17, @opentelemetry/api 1.9 and later 1.x', () => {
    const { dependencies, peerDependencies } = packed.manifest;
    expect(Object.entries(dependencies).filter(([, range]) => /^\d/.test(range))).toEqual([]);
    expect(peerDependencies).toEqual({ msw: '^2.2.3 || ^3.0.0', ioredis: '^5.3.0 || ^6.0.0', redis: '^5.0.0 || ^6.0.0', '@opentelemetry/api': '^1.9.0' });
    expect(semver.intersects(dependencies['graphql'] ?? '', '^16.9.0') && semver.intersects(dependencies['graphql'] ?? '', '^17.0.0')).toBe(true);
  });
});

describe('CLI-only packages stay out of library installs', () => {
  it('are not dependencies, and installing the tarball does not download them', () => {
    expect(Object.keys(packed.manifest.dependencies).filter((name) => CLI_ONLY_PACKAGES.includes(name))).toEqual([]);
    expect(CLI_ONLY_PACKAGES.filter((name) => existsSync(join(esm.dir, 'node_modules', name)))).toEqual([]);
  });

  it('the installed bin has them bundled: grant-coupon reads a CSV, journals and writes a CSV report', async () => {
    const server = await startMockServer({ seed: 'demo' });
    try {
      const members = [demoMemberEmail(21), demoMemberEmail(22), 'not-an-email'];
      writeFileSync(join(esm.dir, 'members.csv'), `email\n${members.join('\n')}\n`);
      const bin = join(esm.dir, 'node_modules/.bin/school-admin');
      const args = ['grant-coupon', '--coupon', DEMO_IDS.restrictedCouponId, '--csv', 'members.csv', '--journal', 'members.journal', '--report', 'report.csv'];
      const env = { ...childEnvironment(), ADMIN_API_URL: server.url, ADMIN_API_KEY: DEMO_API_KEY };
      // Exit 1: the malformed row is reported invalid (not sent); the two members are granted.
      const failure = await runCommand(bin, args, { cwd: esm.dir, env }).then(() => undefined, (error: unknown) => error);
      expect(String(failure)).toContain('exit 1');
      const report = readFileSync(join(esm.dir, 'report.csv'), 'utf8');
      expect(report.split('\n').filter((line) => line.includes(',created,'))).toHaveLength(2);
      expect(report).toContain(',invalid,');
      // The two members' outcomes (the malformed row is not journaled), beside the header and the spending records (issue 30).
      expect(readFileSync(join(esm.dir, 'members.journal'), 'utf8').split('\n').filter((line) => line.includes('"type":"outcome"'))).toHaveLength(2);
      expect(server.simulator.stats().requests.mutations).toBe(2);
    } finally {
      await server.close();
    }
  }, PROCESS_TIMEOUT_MS);
});

describe('dist keeps node: prefixes (Deno, Bun and workerd know built-ins by those names only)', () => {
  it('imports and requires every Node built-in as node:<name>', () => {
    const bare = new Set(builtinModules.filter((name) => !name.startsWith('node:') && !name.startsWith('_')));
    const found = packed.files
      .filter((file) => /\.(c?js)$/.test(file))
      .flatMap((file) => {
        const text = readFileSync(join(workDir, 'source', file), 'utf8');
        return [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)["']([^"']+)["']/gm)]
          .map((match) => match[1] ?? '')
          .filter((specifier) => bare.has(specifier.split('/')[0] ?? '') && bare.has(specifier))
          .map((specifier) => `${file}: ${specifier}`);
      });
    expect(found).toEqual([]);
    expect(readFileSync(join(workDir, 'source/dist/internal/journal.js'), 'utf8')).toMatch(/from ["']node:fs\/promises["']/);
  });
});

describe('the main entry bundles for worker targets (esbuild, conditions workerd/worker/browser)', () => {
  const bundle = (conditions: string[], platform: 'neutral' | 'node', contents = "export { AdminClient, CodedError } from 'school-admin-sdk';") =>
    esbuild.build({
      stdin: { contents, resolveDir: esm.dir, loader: 'js' },
      absWorkingDir: esm.dir,
      bundle: true,
      // Minified: no comment (some quote `import ... from 'node:...'` in examples) is left to match.
      minify: true,
      write: false,
      format: 'esm',
      platform,
      mainFields: ['module', 'main'],
      conditions,
      metafile: true,
      logLevel: 'silent',
    });

  it('resolves with no Node-only module: #journal is the journal-unavailable module there', async () => {
    const result = await bundle(WORKER_CONDITIONS, 'neutral');
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => input.startsWith('node:') || /internal\/journal\.js$/.test(input))).toEqual([]);
    expect(inputs).toContain('node_modules/school-admin-sdk/dist/internal/journal-unavailable.js');
    expect(result.outputFiles[0]?.text).not.toMatch(/(?:\bfrom|\bimport\s*\(|\brequire\s*\()\s*["']node:/);
  });

  // Sizes are bench:bundle's job (bench/README.md); these pin what must never come back in.
  it('import { AdminClient } bundles no GraphQL client library, nor graphql\'s parser or lexer (retry safety reads the text sent); graphql\'s own printer prints a document without its text', async () => {
    const result = await bundle(WORKER_CONDITIONS, 'neutral', "export { AdminClient } from 'school-admin-sdk';");
    const bundled = Object.entries(Object.values(result.metafile.outputs)[0]?.inputs ?? {})
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([input]) => input);
    expect(bundled).toContain('node_modules/graphql/language/printer.mjs');
    expect(bundled.filter((input) => /node_modules\/graphql-request\/|node_modules\/graphql\/language\/(?:parser|lexer)\.|node_modules\/graphql\/error\//.test(input))).toEqual([]);
  });

  it('import { CodedError, hasCode } bundles the documented codes, not their descriptions, the documents or the client', async () => {
    const result = await bundle(WORKER_CONDITIONS, 'neutral', "export { CodedError, hasCode } from 'school-admin-sdk';");
    const text = result.outputFiles[0]?.text ?? '';
    expect(text).toContain('"CodedError"');
    expect(text).not.toContain('the consulting service was not found in this school');
    expect(text).not.toContain('mutation CreateCouponGrant');
    expect(text).not.toContain('X-Service-API-Key');
  });

  it('gets the file journal in a Node bundle', async () => {
    const result = await bundle([], 'node');
    expect(Object.keys(result.metafile.inputs)).toContain('node_modules/school-admin-sdk/dist/internal/journal.js');
  });
});

/** Every string value inside a package.json `imports` or `exports` condition tree. */
function leaves(tree: unknown): string[] {
  if (typeof tree === 'string') return [tree];
  if (tree === null || typeof tree !== 'object') return [];
  return Object.values(tree).flatMap(leaves);
}
