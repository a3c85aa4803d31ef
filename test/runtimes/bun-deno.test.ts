import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { demoMemberEmail } from '../../src/testing/index.js';
import { childEnvironment, runCommand } from '../package/support/run-command.js';
import { runtimeBinary } from './support/runtimes.js';

const consumerDir = inject('consumerDir');

beforeAll(() => {
  copyFileSync(fileURLToPath(new URL('fixtures/smoke.mjs', import.meta.url)), join(consumerDir, 'smoke.mjs'));
});

/** What fixtures/smoke.mjs prints when every step behaved. */
const expectedReport = (userAgent: RegExp) => ({
  userAgent: expect.stringMatching(userAgent),
  grant: { created: true, email: demoMemberEmail(5) },
  // #journal resolved to the file journal (format 2): the header, the run and its budget, the one
  // request sent and answered, and the member's outcome.
  journal: { created: 1, records: ['header', 'run', 'budget', 'sent', 'answered', 'outcome'] },
  refused: { isNetworkError: true, mayHaveReachedServer: false },
  mutationsServed: 2,
});

describe('the packed SDK in Bun (smoke test)', () => {
  it('grants through the mock server, journals to a file, and classes a refused connection as never sent', async () => {
    const { stdout } = await runCommand(runtimeBinary('bun'), ['smoke.mjs'], { cwd: consumerDir });
    expect(JSON.parse(stdout)).toEqual(expectedReport(/^Bun\//));
  });
});

describe('the packed SDK in Deno (smoke test)', () => {
  it('grants through the mock server, journals to a file, and classes a refused connection as never sent', async () => {
    // Deno reads the project's node_modules (it has a package.json); -A: network, files, env.
    const env = { ...childEnvironment(), DENO_NO_UPDATE_CHECK: '1' };
    const { stdout } = await runCommand(runtimeBinary('deno'), ['run', '-A', 'smoke.mjs'], { cwd: consumerDir, env });
    expect(JSON.parse(stdout)).toEqual(expectedReport(/^Deno\//));
  });
});
