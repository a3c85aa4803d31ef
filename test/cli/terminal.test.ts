import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../src/testing/index.js';
import { startFaultServer } from '../reliability/support/fault-server.js';
import { useGrantWorkspace, writeMembersCsv } from './support/grant-server.js';
import { CTRL_C, progressLinesDrawn, runCliInPty, terminalStateAfter } from './support/pty.js';

const workspace = useGrantWorkspace('cli-terminal-', 300, { limit: 1000, windowMs: 1000 });

let files = 0;
/** A members CSV of `count` members starting at `from`, with a journal next to it. */
async function job(from: number, count: number): Promise<{ csv: string; journal: string }> {
  // Numbered before the await: the tests run concurrently, and two jobs on one journal are refused (its lock).
  const n = (files += 1);
  const csv = join(workspace.dir, `members-${n}.csv`);
  await writeMembersCsv(csv, workspace.target.emails.slice(from, from + count));
  return { csv, journal: join(workspace.dir, `members-${n}.journal`) };
}

/** A grant job whose client budget (5 per 20 s) keeps most rows waiting: it is still running when the keys come. */
const slowGrant = (paths: { csv: string; journal: string }): string[] => ['grant-coupon', '--coupon', workspace.target.couponId, '--csv', paths.csv, '--journal', paths.journal, '--rate-limit', '5/20s'];

describe.concurrent('grant-coupon in a terminal: the cursor is shown and line wrapping is on after every way out (pty)', () => {
  it('a normal end (exit 0)', { timeout: 60_000 }, async () => {
    const paths = await job(0, 20);
    const run = await runCliInPty(['grant-coupon', '--coupon', workspace.target.couponId, '--csv', paths.csv], { env: workspace.target.env, columns: 80 });
    expect(run.code, run.transcript).toBe(0);
    expect(run.transcript).toContain('\u001b[?25l');
    expect(terminalStateAfter(run.transcript)).toEqual({ cursorShown: true, wrapping: true });
  });

  it('an error that ends the job (an unknown coupon, exit 1)', { timeout: 60_000 }, async () => {
    const paths = await job(20, 20);
    const run = await runCliInPty(['grant-coupon', '--coupon', '00000000-0000-4000-8000-00000000dead', '--csv', paths.csv], { env: workspace.target.env, columns: 80 });
    expect(run.code, run.transcript).toBe(1);
    expect(run.transcript).toContain('the coupon was not found');
    expect(terminalStateAfter(run.transcript)).toEqual({ cursorShown: true, wrapping: true });
  });

  it('one Ctrl-C (a clean stop, exit 130)', { timeout: 60_000 }, async () => {
    const paths = await job(40, 40);
    const run = await runCliInPty(slowGrant(paths), { env: workspace.target.env, columns: 80, steps: [{ waitFor: 'created 5', delayMs: 300, send: CTRL_C }] });
    expect(run.stepsLeft, run.transcript).toBe(0);
    expect(run.code, run.transcript).toBe(130);
    expect(run.transcript).toContain('Resume with:');
    expect(terminalStateAfter(run.transcript)).toEqual({ cursorShown: true, wrapping: true });
  });

  it('two Ctrl-Cs (the second quits at once, exit 130)', { timeout: 60_000 }, async () => {
    const paths = await job(80, 40);
    const run = await runCliInPty(slowGrant(paths), {
      env: workspace.target.env,
      columns: 80,
      steps: [
        { waitFor: 'created 5', delayMs: 300, send: CTRL_C },
        { waitFor: 'Press Ctrl-C again', delayMs: 800, send: CTRL_C },
      ],
    });
    expect(run.stepsLeft, run.transcript).toBe(0);
    expect(run.code, run.transcript).toBe(130);
    expect(run.transcript).toContain('Quit at once');
    expect(run.transcript).not.toContain('Resume with:');
    expect(terminalStateAfter(run.transcript)).toEqual({ cursorShown: true, wrapping: true });
  });
});

describe.concurrent('create-slots and cancel-meetings in a terminal: a wait line, and the terminal restored (pty)', () => {
  it('Ctrl-C while waiting for a server that does not answer: the command ends by SIGINT, the cursor shown again', { timeout: 60_000 }, async () => {
    const silent = await startFaultServer();
    silent.script({ kind: 'hang' });
    try {
      const args = ['create-slots', '--service', '00000000-0000-4000-8000-000000000050', '--tz', 'UTC', '--from', '2027-02-01', '--to', '2027-02-07', '--weekly', 'Mon 10:00-11:00'];
      const run = await runCliInPty(args, { env: { ADMIN_API_URL: silent.url, ADMIN_API_KEY: DEMO_API_KEY }, columns: 80, steps: [{ waitFor: 'slow server', delayMs: 200, send: CTRL_C }] });
      expect(run.stepsLeft, run.transcript).toBe(0);
      expect(run.signal).toBe(2);
      // At 80 columns the reason is the short one, so the line is never cut.
      expect(run.transcript).toMatch(/waiting, at most 2\d s left: slow server\r?\n?\^C/u);
      expect(terminalStateAfter(run.transcript)).toEqual({ cursorShown: true, wrapping: true });
    } finally {
      await silent.close();
    }
  });
});

describe.concurrent('the progress line fits the terminal and always shows created, failed and invalid (pty)', () => {
  it.each([80, 110, 132])('%i columns, while waiting for the rate limit and after the first Ctrl-C', { timeout: 60_000 }, async (columns) => {
    const paths = await job(120 + columns, 40);
    const run = await runCliInPty(slowGrant(paths), {
      env: workspace.target.env,
      columns,
      steps: [
        { waitFor: 'wait', delayMs: 1_200, send: CTRL_C },
        { waitFor: 'Press Ctrl-C again', delayMs: 800, send: CTRL_C },
      ],
    });
    expect(run.code, run.transcript).toBe(130);
    const lines = progressLinesDrawn(run.transcript);
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) {
      expect(line.length, line).toBeLessThanOrEqual(columns - 1);
      expect(line).toMatch(/created \d+,? .*failed \d+,? invalid \d+/u);
    }
    // The wait for the client's own rate limit shows its reason and time left; "stopping" after the first Ctrl-C.
    expect(lines.some((line) => /wait(ing)?,? (at most )?\d+ s( left)?: .*rate limit/u.test(line)), lines.join('\n')).toBe(true);
    expect(lines.some((line) => line.includes('stopping'))).toBe(true);
    // The full Ctrl-C message is printed on its own lines, wrapped between words at the width, never cut.
    expect(run.transcript.replace(/\s+/gu, ' ')).toContain('Press Ctrl-C again to quit at once.');
  });
});
