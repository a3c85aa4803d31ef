import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/workflows/journal.js';
import { refusedPort } from '../support/refused-port.js';
import { runCli, startCli } from './support/cli-process.js';
import { journalOutcomes, journalPast, reportRows, useGrantWorkspace, writeMembersCsv } from './support/grant-server.js';

const workspace = useGrantWorkspace('cli-grant-', 400, { limit: 50, windowMs: 1000 });

const grantArgs = (csv: string, ...more: string[]): string[] => ['grant-coupon', '--coupon', workspace.target.couponId, '--csv', csv, '--rate-limit', '50/1s', ...more];

describe('school-admin grant-coupon', () => {
  it('grants every member of the CSV and exits 0; progress goes to stderr as plain lines when not a terminal', async () => {
    const csv = join(workspace.dir, 'good.csv');
    await writeMembersCsv(csv, workspace.target.emails.slice(0, 20));
    const run = await runCli(grantArgs(csv), workspace.target.env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^progress: 20\/20 rows \(100%\)/mu);
    expect(run.stdout).toMatch(/created +20/u);
    expect(run.stdout + run.stderr).not.toContain(workspace.target.apiKey);
    expect(workspace.target.emails.slice(0, 20).every((email) => workspace.target.grantsPerEmail().get(email) === 1)).toBe(true);
  });

  it('a CSV with bad rows: they are reported invalid (not sent), the report has one line per row, exit 1', async () => {
    const csv = join(workspace.dir, 'bad-rows.csv');
    const report = join(workspace.dir, 'bad-rows-report.csv');
    await writeFile(csv, ['Email,userId,name', `${workspace.target.emails[20]},,Ada`, 'not-an-email,,Bob', `${workspace.target.emails[21]},7e1f0c2a-0000-4000-8000-000000000001,Both`, ',,Nobody', 'ghost@cli.example,,Unknown'].join('\n') + '\n');
    const run = await runCli(grantArgs(csv, '--report', report), workspace.target.env);
    expect(run.code).toBe(1);
    const rows = reportRows(await readFile(report, 'utf8'));
    expect(rows.map((row) => [row['line'], row['outcome'], row['errorCode']])).toEqual([
      ['2', 'created', ''],
      ['3', 'invalid', 'invalid_email'],
      ['4', 'invalid', 'both_identifiers'],
      ['5', 'invalid', 'neither_identifier'],
      ['6', 'failed', 'ENROLLMENT-002'],
    ]);
    expect(rows[0]?.['grantId']).toMatch(/^[0-9a-f-]{36}$/u);
    expect(run.stdout).toContain('line 3: invalid (invalid_email)');
    expect(run.stdout).toContain('line 6: failed ENROLLMENT-002');
    // An unknown member fails the same way every time: no "run again" advice, and no journal line.
    expect(run.stdout).not.toContain('look temporary');
    expect(run.stdout).not.toContain('skipped');
    // Only the good row and the unknown member were sent.
    expect(workspace.target.grantsPerEmail().get(workspace.target.emails[21] as string)).toBeUndefined();
  });

  it('a header without an email or userId column is a usage error (exit 2), nothing sent', async () => {
    const csv = join(workspace.dir, 'no-header.csv');
    await writeFile(csv, 'name,phone\nAda,123\n');
    const before = workspace.target.simulator.stats().requests.mutations;
    const run = await runCli(grantArgs(csv), workspace.target.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('the header row has no email or userId column');
    expect(workspace.target.simulator.stats().requests.mutations).toBe(before);
  });

  it('an unknown coupon stops the job after one request (exit 1)', async () => {
    const csv = join(workspace.dir, 'unknown-coupon.csv');
    await writeMembersCsv(csv, workspace.target.emails.slice(30, 60));
    const before = workspace.target.simulator.stats().requests.mutations;
    const run = await runCli(['grant-coupon', '--coupon', '00000000-0000-4000-8000-00000000dead', '--csv', csv], workspace.target.env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('school-admin: Failed to grant the coupon: the coupon was not found');
    expect(workspace.target.simulator.stats().requests.mutations - before).toBe(1);
  });

  // Regression: 300 rows to a refused port were still running after 2.5 min ("ETA 4h 26m | wait
  // 42 s: rate limit"), then advised "run the same command again".
  it('a server that cannot be reached stops the job like a refused key: the first grant and its retries, then exit 1 naming the URL and ADMIN_API_URL (300 rows)', { timeout: 60_000 }, async () => {
    const csv = join(workspace.dir, 'unreachable.csv');
    const journal = join(workspace.dir, 'unreachable.journal');
    await writeMembersCsv(csv, workspace.target.emails.slice(100, 400));
    const url = `http://127.0.0.1:${await refusedPort()}`;
    const started = performance.now();
    const run = await runCli(['grant-coupon', '--coupon', workspace.target.couponId, '--csv', csv, '--journal', journal], { ...workspace.target.env, ADMIN_API_URL: url });
    const elapsedMs = performance.now() - started;
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(
      `school-admin: Failed to reach the admin API at ${url}: connection refused (ECONNREFUSED). The job stopped; grants not sent are left for another run. Check ADMIN_API_URL, then run the same command again (the journal skips the members done).`,
    );
    expect(run.stderr).toContain('the server cannot be reached (ECONNREFUSED)');
    expect(run.stdout + run.stderr).not.toContain('look temporary');
    expect(run.stdout + run.stderr).not.toContain(workspace.target.apiKey);
    // The default 4 retries of the first grant take 7.5-15 s of backoff; nothing else is sent.
    expect(elapsedMs).toBeLessThan(20_000);
    const recorded = await openJournal(journal, { couponId: workspace.target.couponId });
    expect([recorded.done.size, recorded.failed.size]).toEqual([0, 1]);
    await recorded.close();
  });

  it('Ctrl-C (SIGINT) stops cleanly with a consistent journal and a resume hint (exit 130); the resumed run finishes the rest', { timeout: 60_000 }, async () => {
    const csv = join(workspace.dir, 'interrupted.csv');
    const journal = join(workspace.dir, 'interrupted.journal');
    const members = workspace.target.emails.slice(100, 400);
    await writeMembersCsv(csv, members);
    const running = startCli(grantArgs(csv, '--journal', journal), workspace.target.env);
    await journalPast(journal, 60);
    running.child.kill('SIGINT');
    const stopped = await running.finished;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('Stopping: no new grants');
    expect(stopped.stdout).toContain('Resume with:');
    expect(stopped.stdout).toContain(`--journal ${journal} --rate-limit 50/1s`);

    const opened = await openJournal(journal, { couponId: workspace.target.couponId });
    expect(opened.recovery).toBeNull();
    const journaled = opened.done.size;
    await opened.close();
    expect(journaled).toBeGreaterThanOrEqual(60);
    expect(journaled).toBeLessThan(members.length);
    // Every journaled member holds its grant.
    const grants = workspace.target.grantsPerEmail();
    expect(members.filter((email) => grants.get(email) === 1).length).toBeGreaterThanOrEqual(journaled);

    const resumed = await runCli(grantArgs(csv, '--journal', journal), workspace.target.env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`skipped +${journaled}\\b`, 'u'));
    const after = workspace.target.grantsPerEmail();
    expect(members.filter((email) => after.get(email) !== 1)).toEqual([]);
  });

  describe('a second Ctrl-C', () => {
    /** Starts a job whose client budget (10 per 30 s) keeps most grants waiting, once 10 are journaled. */
    async function startWaitingJob(name: string) {
      const csv = join(workspace.dir, `${name}.csv`);
      const journal = join(workspace.dir, `${name}.journal`);
      await writeMembersCsv(csv, workspace.target.emails.slice(0, 100));
      const running = startCli(['grant-coupon', '--coupon', workspace.target.couponId, '--csv', csv, '--journal', journal, '--rate-limit', '10/30s'], workspace.target.env);
      await waitFor(() => journalOutcomes(journal) > 10);
      return running;
    }

    it('at least half a second after the first quits at once (exit 130)', { timeout: 60_000 }, async () => {
      const running = await startWaitingJob('forced');
      running.child.kill('SIGINT');
      await waitFor(() => running.output().stderr.includes('Stopping'));
      await new Promise((resolve) => setTimeout(resolve, 800));
      running.child.kill('SIGINT');
      const run = await running.finished;
      expect(run.code).toBe(130);
      expect(run.stderr).toContain('Quit at once');
      expect(run.stdout).not.toContain('Resume with:');
    });

    it('right after the first (a launcher passing the signal on) counts as the same Ctrl-C: the stop stays clean', { timeout: 60_000 }, async () => {
      const running = await startWaitingJob('relayed');
      running.child.kill('SIGINT');
      running.child.kill('SIGINT');
      const run = await running.finished;
      expect(run.code).toBe(130);
      expect(run.stderr).not.toContain('Quit at once');
      expect(run.stdout).toContain('Resume with:');
    });
  });
});

/** Polls `condition` (which may throw while a file does not exist yet) every 10 ms. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (;;) {
    try {
      if (condition()) return;
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
