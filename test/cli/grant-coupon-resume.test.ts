import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../src/workflows/journal.js';
import { runCli } from './support/cli-process.js';
import { reportRows, useGrantWorkspace } from './support/grant-server.js';

const workspace = useGrantWorkspace('cli-grant-resume-', 60, { limit: 200, windowMs: 1000 });

const grant = (csv: string, ...more: string[]): string[] => ['grant-coupon', '--coupon', workspace.target.couponId, '--csv', csv, ...more];
const mutations = (): number => workspace.target.simulator.stats().requests.mutations;

describe('grant-coupon resume: permanent failures are not sent again unless --retry-failed', () => {
  it('ENROLLMENT-002 rows are reported failed again without a request; --retry-failed sends them', async () => {
    const csv = join(workspace.dir, 'resume.csv');
    const journal = join(workspace.dir, 'resume.journal');
    await writeFile(csv, ['email', workspace.target.emails[0], 'ghost-1@cli.example', workspace.target.emails[1], 'ghost-2@cli.example'].join('\n') + '\n');
    const first = await runCli(grant(csv, '--journal', journal), workspace.target.env);
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/failed +2\n/u);

    const before = mutations();
    const resumed = await runCli(grant(csv, '--journal', journal), workspace.target.env);
    expect(resumed.code).toBe(1);
    expect(mutations() - before).toBe(0);
    expect(resumed.stdout).toMatch(/skipped +2 /u);
    expect(resumed.stdout).toContain('failed           2   (2 not sent again: permanent failures recorded by an earlier run)');
    expect(resumed.stdout).toContain('line 3: failed ENROLLMENT-002 (the user was not found in this school); not sent again (--retry-failed sends it)');
    expect(resumed.stdout).toContain('Fix them and add --retry-failed to send them.');

    const retried = await runCli(grant(csv, '--journal', journal, '--retry-failed'), workspace.target.env);
    expect(retried.code).toBe(1);
    expect(mutations() - before).toBe(2);
    expect(retried.stdout).not.toContain('not sent again');
  });
});

describe('grant-coupon: a journal written for another coupon', () => {
  it('exits 2 (nothing sent), names the journal and says it can be deleted; an existing report is left untouched', async () => {
    const csv = join(workspace.dir, 'other.csv');
    const journal = join(workspace.dir, 'other.journal');
    const report = join(workspace.dir, 'other-report.csv');
    await writeFile(csv, `email\n${workspace.target.emails[10]}\n`);
    await (await openJournal(journal, { couponId: '00000000-0000-4000-8000-0000000000aa' })).close();
    await writeFile(report, 'an earlier report\n');
    const before = mutations();
    const run = await runCli(grant(csv, '--journal', journal, '--report', report), workspace.target.env);
    expect(run.code).toBe(2);
    expect(mutations()).toBe(before);
    expect(run.stderr).toContain(
      `school-admin: Failed to resume from the journal ${journal}: it was written for coupon 00000000-0000-4000-8000-0000000000aa, not --coupon ${workspace.target.couponId}. Nothing was sent. ` +
        `Give this coupon its own --journal file; or, if that other job is finished or abandoned, delete the journal (rm ${journal}) and run again.`,
    );
    expect(run.stderr).not.toContain('openJournal');
    expect(await readFile(report, 'utf8')).toBe('an earlier report\n');
  });
});

describe('grant-coupon summary: problems in input order, each code\'s remedy once', () => {
  it('an invalid row answered at once is listed after a failure on an earlier line that took a request', async () => {
    const csv = join(workspace.dir, 'order.csv');
    const report = join(workspace.dir, 'order-report.csv');
    // Line 2 is the job's first grant, sent alone; the invalid row on line 3 is refused at once, before it is answered.
    await writeFile(csv, ['email', 'ghost-a@cli.example', 'not-an-email', workspace.target.emails[20], 'ghost-b@cli.example', 'also bad'].join('\n') + '\n');
    const run = await runCli(grant(csv, '--report', report), workspace.target.env);
    expect(run.code).toBe(1);
    const problems = run.stdout.slice(run.stdout.indexOf('Problems:'));
    expect(problems.split('\n').slice(1, 6)).toEqual([
      '  line 2: failed ENROLLMENT-002 (the user was not found in this school)',
      '  line 3: invalid (invalid_email): the email is not a valid address',
      '  line 5: failed ENROLLMENT-002 (the user was not found in this school)',
      '  line 6: invalid (invalid_email): the email is not a valid address',
      'ENROLLMENT-002: Check the member; deleted accounts and members of other schools cannot be used.',
    ]);
    expect(run.stdout.match(/Check the member; deleted accounts/gu)).toHaveLength(1);
    expect(reportRows(await readFile(report, 'utf8')).map((row) => row['line'])).toEqual(['2', '3', '4', '5', '6']);
  });

  it('beyond ten problems, the first ten by line are listed', async () => {
    const csv = join(workspace.dir, 'many.csv');
    const lines = Array.from({ length: 14 }, (_, index) => (index % 2 === 0 ? `ghost-${index}@cli.example` : `bad-${index}`));
    await writeFile(csv, ['email', ...lines].join('\n') + '\n');
    const run = await runCli(grant(csv), workspace.target.env);
    expect(run.stdout).toContain('Problems (first 10 of 14 by line):');
    const listed = [...run.stdout.matchAll(/^ {2}line (\d+):/gmu)].map((match) => Number(match[1]));
    expect(listed).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });
});

describe('grant-coupon: a journal another run is writing', () => {
  it('exits 2 at once (nothing sent), names the journal, the process and what to do', async () => {
    const csv = join(workspace.dir, 'locked.csv');
    const journal = join(workspace.dir, 'locked.journal');
    await writeFile(csv, `email\n${workspace.target.emails[11]}\n`);
    // This test process holds the journal, as a second terminal running the same job would.
    const held = await openJournal(journal, { couponId: workspace.target.couponId });
    const before = mutations();
    const run = await runCli(grant(csv, '--journal', journal), workspace.target.env);
    await held.close();
    expect(run.code).toBe(2);
    expect(mutations()).toBe(before);
    expect(run.stderr).toContain(`school-admin: Failed to open the journal ${journal} (--journal): process ${process.pid} (since `);
    expect(run.stderr).toContain(`is writing it (lock ${journal}.lock); one run at a time. Nothing was sent. Let that run finish or stop it (Ctrl-C), then run the same command again to resume;`);
    expect(run.stderr).toContain(`delete the lock (rm ${journal}.lock)`);
  });
});
