import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
// Every runnable example (run-all.ts runs them all; it is not one of them), demo.ts (`npm run demo`) included.
const scripts = readdirSync(EXAMPLES).filter((name) => name.endsWith('.ts') && name !== 'run-all.ts').sort();

/** Runs an example in its own process against the built-in simulator (ADMIN_API_* unset). */
function runExample(name: string): Promise<{ code: number | null; output: string }> {
  const env = { ...process.env };
  delete env['ADMIN_API_URL'];
  delete env['ADMIN_API_KEY'];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `examples/${name}`], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.concurrent('examples run against the simulator by default', () => {
  it('there is one per workflow and per resource, and the demo', () => {
    for (const name of ['grant-coupon-to-many', 'weekly-slots', 'cancel-meetings', 'payment-webhook', 'subscriptions', 'consulting-services', 'meetings', 'coupons', 'grants', 'many-schools', 'demo']) {
      expect(scripts).toContain(`${name}.ts`);
    }
  });

  it.each(scripts)('examples/%s exits 0', { timeout: 180_000 }, async (name) => {
    const run = await runExample(name);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('->');
  });
});
