import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { childEnvironment, runCommand, type CommandOutput } from '../package/support/run-command.js';
import { nodeAtLeast } from './support/runtimes.js';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
const tarball = inject('tarball');
/** The OpenTelemetry JS SDK 3 and @opentelemetry/instrumentation 0.300+ declare Node >= 22.15. */
const NODE_FOR_CURRENT_OTEL = '22.15.0';
/** What an app on the current OpenTelemetry JS SDK installs: the newest of each (`npm install <name>@latest` saves its caret range). */
const APP_DEPENDENCIES = ['@opentelemetry/api', '@opentelemetry/instrumentation', '@opentelemetry/instrumentation-undici', '@opentelemetry/sdk-metrics', '@opentelemetry/sdk-node', '@opentelemetry/sdk-trace'];

let dir: string;
let install: CommandOutput;
let node: string;

beforeAll(async () => {
  node = nodeAtLeast(NODE_FOR_CURRENT_OTEL);
  dir = join(dirname(tarball), 'otel-current-app');
  mkdirSync(dir);
  const manifest = { name: 'otel-current-app', private: true, type: 'module', dependencies: { 'school-admin-sdk': `file:${tarball}` } };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  copyFileSync(fileURLToPath(new URL('fixtures/otel-app.ts.txt', import.meta.url)), join(dir, 'app.mts'));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2023', 'dom'], strict: true, typeRoots: [join(projectRoot, 'node_modules/@types')], types: ['node'], outDir: 'out' },
      include: ['*.mts'],
    }),
  );
  // As the app's developer would: a plain `npm install` from the registry (no lockfile).
  install = await runCommand('npm', ['install', '--no-audit', '--no-fund', ...APP_DEPENDENCIES.map((name) => `${name}@latest`)], { cwd: dir });
}, 300_000);

describe('school-admin-sdk/otel with the current OpenTelemetry JS SDK (3.x, api 1.10) on Node >= 22.15', () => {
  it('installs next to it without ERESOLVE or an invalid peer (the optional peer @opentelemetry/api ^1.9.0 takes 1.10)', async () => {
    expect(`${install.stdout}\n${install.stderr}`).not.toMatch(/ERESOLVE|invalid|conflicting peer/i);
    const { stdout } = await runCommand('npm', ['ls', '@opentelemetry/api', '@opentelemetry/sdk-trace', '--json'], { cwd: dir });
    const tree = JSON.parse(stdout) as { dependencies: Record<string, { version: string }> };
    expect(tree.dependencies['@opentelemetry/api']?.version).toMatch(/^1\.(1\d|[2-9]\d)\./);
    expect(tree.dependencies['@opentelemetry/sdk-trace']?.version).toMatch(/^[3-9]\./);
  });

  it('type-checks the NodeSDK\'s and registerInstrumentations\' instrumentations lists with AdminClientInstrumentation in them', async () => {
    await runCommand(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir });
    expect(readFileSync(join(dir, 'out/app.mjs'), 'utf8')).toContain("from 'school-admin-sdk/otel'");
  });

  it('runs: the call span under the app\'s span, undici\'s fetch span under the attempt\'s, error.type and ran on a failure, the metrics', async () => {
    const { stdout } = await runCommand(node, ['out/app.mjs'], { cwd: dir, env: childEnvironment() });
    expect(JSON.parse(stdout)).toEqual({
      callParent: 'handle',
      callAttributes: { type: 'mutation', name: 'CreateCouponGrant', ran: 'yes' },
      fetchUnderAttempt: true,
      failure: { ran: 'no', errorType: 'COUPON-004' },
      metrics: expect.arrayContaining(['school_admin.client.operation.duration', 'school_admin.client.waiting_calls']),
    });
  });
});
