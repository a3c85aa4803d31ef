import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_IDS, demoMemberEmail, startMockServer, type MockServer } from '../../src/testing/index.js';
import { runInPty } from '../cli/support/pty.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const DEMO = ['--import', 'tsx', 'examples/demo.ts'];

let school: MockServer;
/** The mock server stands in for a real school: the demo cannot tell it from one. */
let realServerEnv: Record<string, string>;
beforeAll(async () => {
  school = await startMockServer({ seed: 'demo' });
  realServerEnv = {
    ADMIN_API_URL: school.url,
    ADMIN_API_KEY: DEMO_API_KEY,
    ADMIN_DEMO_COURSE_ID: DEMO_IDS.courseIds[0],
    ADMIN_DEMO_MEMBER_EMAILS: [1, 2, 3, 4, 5].map((n) => demoMemberEmail(n)).join(','),
    ADMIN_DEMO_SUBSCRIPTION_ID: DEMO_IDS.subscriptionIds.active,
  };
});
afterAll(async () => {
  await school.close();
});

const requests = (): number => school.simulator.stats().requests.mutations + school.simulator.stats().requests.queries;

/** Runs the demo with pipes (no terminal); `until` stops it once its output contains that text. */
function runDemo(args: string[], env: Record<string, string>, until?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...DEMO, ...args], { cwd: REPO, env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (until !== undefined && stdout.includes(until)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const SIDE_EFFECTS = [
  'create and publish a consulting service "Exam prep office hours"',
  'rate one of them 9/10 with a comment: the school emails that student',
  'grant it to 5 real members of ADMIN_DEMO_MEMBER_EMAILS',
  `extend subscription ${DEMO_IDS.subscriptionIds.active} by 30 days`,
];

describe('npm run demo against the built-in simulator', () => {
  it('states its scaled window, so 300 grants in about 15 s is no mystery', { timeout: 60_000 }, async () => {
    const run = await runDemo([], {}, 'Create and publish');
    expect(run.stdout).toContain(
      'The simulator allows 200 mutations per 15 s window (a self-hosted setting; the documented limit is 200 per 60 s), so the 300 grants below take about one window: 15 s here, a minute against a real school.',
    );
  });
});

describe('npm run demo against a real server (ADMIN_API_URL and ADMIN_API_KEY): it lists its side effects and asks first', () => {
  it('without a terminal and without --yes it refuses with the remedy (exit 2) and sends nothing', { timeout: 60_000 }, async () => {
    const before = requests();
    const run = await runDemo([], realServerEnv);
    expect(run.code).toBe(2);
    for (const effect of SIDE_EFFECTS) expect(run.stdout).toContain(effect);
    expect(run.stderr).toContain('there is no terminal to ask. Run it with --yes (npm run demo -- --yes) to go on, or unset ADMIN_API_URL and ADMIN_API_KEY to use the built-in simulator.');
    expect(requests()).toBe(before);
  });

  it('on a terminal, any answer but "yes" stops it (exit 1) before anything is sent', { timeout: 60_000 }, async () => {
    const before = requests();
    const run = await runInPty([process.execPath, ...DEMO], { env: realServerEnv, columns: 100, steps: [{ waitFor: 'Type "yes" to go on', send: 'no\r' }] });
    expect(run.code, run.transcript).toBe(1);
    expect(run.transcript).toContain('extend subscription');
    expect(run.transcript).toContain('Stopped: nothing was sent.');
    expect(requests()).toBe(before);
  });

  it('"yes" on a terminal, or --yes anywhere, runs it', { timeout: 120_000 }, async () => {
    const typed = await runInPty([process.execPath, ...DEMO], { env: realServerEnv, columns: 100, steps: [{ waitFor: 'Type "yes" to go on', send: 'yes\r' }], timeoutMs: 100_000 });
    expect(typed.code, typed.transcript).toBe(0);
    const before = requests();
    const flagged = await runDemo(['--yes'], realServerEnv);
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(flagged.stdout).toContain('Grant it to 5 members, paced under the mutation budget (200 per 60 s window)');
    expect(requests()).toBeGreaterThan(before);
  });
});
