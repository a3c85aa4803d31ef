import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../cli/support/cli-process.js';
import { journalOutcomes, reportRows, startGrantServer, writeMembersCsv, type GrantServer } from '../cli/support/grant-server.js';

const MEMBERS = 1000;
/** The job is killed once the journal holds this many member lines. */
const KILL_AFTER_LINES = 300;

let dir: string;
let target: GrantServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'grant-kill-'));
  // A self-hosted-style window (200 per second) so 1,000 grants take about five seconds; the server
  // lives in this test process, so its state survives the child's death.
  target = await startGrantServer(MEMBERS, { limit: 200, windowMs: 1000 });
});
afterAll(async () => {
  await target.server.close();
  await rm(dir, { recursive: true, force: true });
});


describe('a grant job of 1,000 members killed with SIGKILL part-way and run again with the same journal', () => {
  it('ends with every member granted exactly once, none missing, and a report of 1,000 rows', { timeout: 90_000 }, async () => {
    const csv = join(dir, 'members.csv');
    const journal = join(dir, 'grants.journal');
    const report = join(dir, 'report.csv');
    await writeMembersCsv(csv, target.emails);
    const args = ['grant-coupon', '--coupon', target.couponId, '--csv', csv, '--journal', journal, '--report', report, '--rate-limit', '200/1s'];

    const first = startCli(args, target.env);
    const killedAt = await new Promise<number>((resolve, reject) => {
      const poll = setInterval(() => {
        const lines = journalOutcomes(journal);
        if (lines > KILL_AFTER_LINES) {
          clearInterval(poll);
          first.child.kill('SIGKILL');
          resolve(lines);
        }
      }, 10);
      void first.finished.then((run) => {
        clearInterval(poll);
        if (run.signal !== 'SIGKILL') reject(new Error(`the job ended before it was killed (code ${run.code}): ${run.stderr}`));
      });
    });
    const killed = await first.finished;
    expect(killed.signal).toBe('SIGKILL');
    // Killed part-way: some hundreds done, most not.
    const grantedBeforeResume = target.grantsPerEmail().size;
    expect(grantedBeforeResume).toBeGreaterThanOrEqual(KILL_AFTER_LINES);
    expect(grantedBeforeResume).toBeLessThan(MEMBERS);

    const second = await startCli(args, target.env).finished;
    expect(second.stderr).not.toContain(target.apiKey);
    expect(second.code, second.stderr).toBe(0);

    const grants = target.grantsPerEmail();
    expect(target.emails.filter((email) => grants.get(email) !== 1)).toEqual([]);
    expect(grants.size).toBe(MEMBERS);

    const rows = reportRows(await readFile(report, 'utf8'));
    expect(rows).toHaveLength(MEMBERS);
    expect(new Set(rows.map((row) => row['email']))).toEqual(new Set(target.emails));
    expect(rows.map((row) => Number(row['line']))).toEqual(target.emails.map((_, index) => index + 2));
    const outcomes = new Map<string, number>();
    for (const row of rows) outcomes.set(row['outcome'] ?? '', (outcomes.get(row['outcome'] ?? '') ?? 0) + 1);
    // Members journaled before the kill are skipped; a grant made but not yet journaled when the
    // process died is sent again and answered already_granted; the rest are created now.
    expect([...outcomes.keys()].every((outcome) => ['skipped', 'created', 'already_granted'].includes(outcome))).toBe(true);
    expect(outcomes.get('skipped')).toBeGreaterThanOrEqual(killedAt - 1);
    expect((outcomes.get('created') ?? 0) + (outcomes.get('already_granted') ?? 0)).toBe(MEMBERS - (outcomes.get('skipped') ?? 0));
    expect(outcomes.get('created')).toBe(MEMBERS - grantedBeforeResume);
  });
});
