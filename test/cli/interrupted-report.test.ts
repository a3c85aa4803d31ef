import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from './support/cli-process.js';
import { journalPast, reportRows, useGrantWorkspace, writeMembersCsv } from './support/grant-server.js';

const workspace = useGrantWorkspace('cli-interrupted-report-', 300, { limit: 50, windowMs: 1000 });

const grantArgs = (csv: string, ...more: string[]): string[] => ['grant-coupon', '--coupon', workspace.target.couponId, '--csv', csv, '--rate-limit', '50/1s', ...more];

/** Outcomes that mean the member holds the grant. */
const DONE = new Set(['created', 'already_granted', 'skipped']);

describe('grant-coupon --report of an interrupted run: every row with its state, the rows left included', () => {
  it('lists each CSV row once, in order, "not_reached" for rows never read; its rows not done are exactly what the resume sends', { timeout: 60_000 }, async () => {
    const csv = join(workspace.dir, 'members.csv');
    const journal = join(workspace.dir, 'members.journal');
    const report = join(workspace.dir, 'interrupted-report.csv');
    const members = workspace.target.emails.slice(0, 300);
    await writeMembersCsv(csv, members);
    const running = startCli(grantArgs(csv, '--journal', journal, '--report', report), workspace.target.env);
    await journalPast(journal, 60);
    running.child.kill('SIGINT');
    const stopped = await running.finished;
    expect(stopped.code, stopped.stderr).toBe(130);

    const rows = reportRows(await readFile(report, 'utf8'));
    expect(rows.map((row) => row['line'])).toEqual(members.map((_, index) => String(index + 2)));
    expect(rows.map((row) => row['email'])).toEqual(members);
    const count = (outcome: string): number => rows.filter((row) => row['outcome'] === outcome).length;
    expect(new Set(rows.map((row) => row['outcome']))).toEqual(new Set(['created', 'not_reached', ...(count('not_finished') > 0 ? ['not_finished'] : [])]));
    expect(count('not_reached')).toBeGreaterThan(0);
    expect(stopped.stdout).toMatch(new RegExp(`not reached +${count('not_reached')}\\b`, 'u'));
    expect(rows.find((row) => row['outcome'] === 'not_reached')?.['message']).toBe('not reached before the interrupt: sent on resume');

    const left = rows.filter((row) => !DONE.has(row['outcome'] as string)).map((row) => row['email']);
    const resumedReport = join(workspace.dir, 'resumed-report.csv');
    const resumed = await runCli(grantArgs(csv, '--journal', journal, '--report', resumedReport), workspace.target.env);
    expect(resumed.code, resumed.stderr).toBe(0);
    const sent = reportRows(await readFile(resumedReport, 'utf8')).filter((row) => row['outcome'] !== 'skipped').map((row) => row['email']);
    expect(sent).toEqual(left);
  });
});
