import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grantCouponToMany, type GrantProgress } from '../../src/workflows/grant-to-many.js';
import { encodeRecordLine } from '../../src/workflows/journal/record-line.js';
import type { JournalRecord } from '../../src/workflows/journal/records.js';
import { ScriptedGrants } from './support/scripted-grants.js';

/*
 * Issue 30, point 4: a resumed run printed `100/300 eta 0s`, `150/300 eta 0s`, then `200/300 eta
 * 109s`. Rows the journal holds as done are skipped, not sent: they are neither work left nor work
 * done for the estimate, and the earlier run's requests that still count take their share of the
 * budget. The journals here are written as another process left them.
 */

const COUPON = 'coupon-1';
const BUDGET = { limit: 200, windowMs: 60_000 };
let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'resume-progress-'));
  path = join(dir, 'grants.journal');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const email = (n: number): string => `member-${n}@school.example`;

/**
 * A journal another process left: `done` members created and, in version 2, its `sends` answered at
 * the given epoch times (version 1, as an SDK before issue 30 wrote it, holds members only).
 */
async function journalOfAnotherProcess(done: number, sends: number[], version: 1 | 2 = 2): Promise<void> {
  const spending: JournalRecord[] = [
    { type: 'run', process: 'another-host:4242:1', leaseMs: 65_000, atMs: Date.now() - 120_000 },
    { type: 'budget', ...BUDGET, source: 'configured', atMs: Date.now() - 120_000 },
  ];
  const records: JournalRecord[] = [
    { type: 'header', version, couponId: COUPON, createdAt: new Date().toISOString() },
    ...(version === 2 ? spending : []),
    ...sends.flatMap((at, n): JournalRecord[] => [
      { type: 'sent', request: `call_other_${n}#1`, atMs: at - 20 },
      { type: 'answered', request: `call_other_${n}#1`, atMs: at },
    ]),
    ...Array.from({ length: done }, (_, n): JournalRecord => ({ type: 'outcome', member: email(n), outcome: 'created', grantId: `g-${n}`, at: new Date().toISOString() })),
  ];
  await writeFile(path, records.map(encodeRecordLine).join(''));
}

/** Runs the job until `stopAfter` rows are done (interrupting it there); returns every progress report. */
async function progressOf(total: number, stopAfter: number): Promise<GrantProgress[]> {
  const client = new ScriptedGrants();
  const reports: GrantProgress[] = [];
  const controller = new AbortController();
  const members = Array.from({ length: total }, (_, n) => ({ email: email(n) }));
  const job = grantCouponToMany(client, COUPON, members, {
    journal: path,
    signal: controller.signal,
    interruptGraceMs: 0,
    onProgress: (progress) => {
      reports.push(progress);
      if (progress.done >= stopAfter) controller.abort();
    },
  }, { budget: BUDGET });
  // The rows past the journal's are sent: answer them as they come until the job stops.
  const answering = setInterval(() => client.succeedAll(), 1);
  try {
    await job;
  } finally {
    clearInterval(answering);
  }
  return reports;
}

describe('"Progress on resume: estimate from the rows that still need requests" (issue 30)', () => {
  it('skipped rows are not work left: 500 rows, 400 done per the journal, at the 100th skip the 100 to send fit the budget (ETA 0, not a window)', async () => {
    await journalOfAnotherProcess(400, [], 1);
    const reports = await progressOf(500, 100);
    const atHundred = reports.find((progress) => progress.done === 100);
    expect(atHundred).toMatchObject({ done: 100, counts: { skipped: 100 }, sent: 0 });
    expect(atHundred?.etaMs).toBe(0);
  });

  it('the earlier run\'s requests still count: 300 rows, 150 done by a process killed a second ago; after the 150 skips the ETA is the rest of that window, not 0', async () => {
    const answeredAt = Date.now() - 1_000;
    await journalOfAnotherProcess(150, Array.from({ length: 150 }, () => answeredAt));
    const reports = await progressOf(300, 150);
    const skipped = reports.filter((progress) => progress.counts.skipped === progress.done && progress.done >= 100);
    expect(skipped.map((progress) => progress.done)).toContain(150);
    // 150 to send with 50 slots free: the last waits until the earlier answers leave the window, 59 s from now.
    for (const progress of skipped) {
      expect(progress.budgetBound, `at ${progress.done}`).toBe(true);
      expect(progress.etaMs, `at ${progress.done}`).toBeGreaterThan(BUDGET.windowMs - 5_000);
      expect(progress.etaMs, `at ${progress.done}`).toBeLessThanOrEqual(BUDGET.windowMs - 1_000);
    }
  });
});
