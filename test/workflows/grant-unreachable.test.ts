import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NetworkError, type GrantOutcome } from '../../src/index.js';
import { openJournal } from '../../src/workflows/journal.js';
import { UNREACHABLE_GRANTS_IN_A_ROW } from '../../src/workflows/grant-to-many/unreachable-streak.js';
import { grantSchool } from './support/grant-school.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'grant-unreachable-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Quick retries: 4 of them (the default count), a few milliseconds apart. */
const QUICK_RETRIES = { maxRetries: 4, retryBaseDelayMs: 1, maxRetryDelayMs: 5 };

async function journaled(path: string, couponId: string): Promise<{ done: number; failed: number }> {
  const journal = await openJournal(path, { couponId });
  try {
    return { done: journal.done.size, failed: journal.failed.size };
  } finally {
    await journal.close();
  }
}

describe('grantCouponToMany: "the first grant goes alone", so a server that cannot be reached stops the job like a refused key', () => {
  it('the first grant cannot connect: after its own retries the job rejects with its NetworkError, naming baseUrl; no other row is sent', async () => {
    let attempts = 0;
    const school = grantSchool(300, { client: QUICK_RETRIES, refused: () => ((attempts += 1), true) });
    const journal = join(dir, 'refused.journal');
    const outcomes: GrantOutcome[] = [];
    const error = await school.admin
      .grantCouponToMany(school.couponId, school.emails.map((email) => ({ email })), { journal, onOutcome: (outcome) => void outcomes.push(outcome) })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ mayHaveReachedServer: false, networkCode: 'ECONNREFUSED', origin: 'http://127.0.0.1:1' });
    expect((error as Error).message).toContain('the connection to http://127.0.0.1:1 failed (ECONNREFUSED)');
    expect(attempts).toBe(5);
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(['failed']);
    // Nothing is recorded done: a resumed run sends every row, the failed one included.
    expect(await journaled(journal, school.couponId)).toEqual({ done: 0, failed: 1 });
  });
});

describe(`grantCouponToMany: a server that becomes unreachable mid-job stops it after ${UNREACHABLE_GRANTS_IN_A_ROW} grants in a row could not connect`, () => {
  it('rejects with the NetworkError; the rows not sent are left for a resumed run, which grants them', async () => {
    let reachable = true;
    const school = grantSchool(60, { client: QUICK_RETRIES, refused: () => !reachable });
    const journal = join(dir, 'outage.journal');
    const rows = school.emails.map((email) => ({ email }));
    const outcomes: GrantOutcome[] = [];
    const onOutcome = (outcome: GrantOutcome): void => {
      outcomes.push(outcome);
      if (outcomes.filter((each) => each.outcome === 'created').length === 10) reachable = false;
    };
    const error = await school.admin.grantCouponToMany(school.couponId, rows, { journal, concurrency: 4, onOutcome }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'NetworkError', mayHaveReachedServer: false });
    const failed = outcomes.filter((outcome) => outcome.outcome === 'failed').length;
    // The streak, plus the grants already in flight when the job stopped.
    expect(failed).toBeGreaterThanOrEqual(UNREACHABLE_GRANTS_IN_A_ROW);
    expect(failed).toBeLessThan(UNREACHABLE_GRANTS_IN_A_ROW + 4);
    expect(outcomes.length).toBeLessThan(30);

    reachable = true;
    const resumed = await school.admin.grantCouponToMany(school.couponId, rows, { journal, concurrency: 4 });
    expect(resumed.counts.skipped).toBe(outcomes.length - failed);
    expect(resumed.allSucceeded).toBe(true);
    expect([...school.activeGrantsByUser().values()]).toEqual(Array.from({ length: 60 }, () => 1));
  });

  it(`fewer than ${UNREACHABLE_GRANTS_IN_A_ROW} in a row do not stop it: a grant the server answers ends the streak, and each unreachable row is reported failed`, async () => {
    const school = grantSchool(30, { client: QUICK_RETRIES, refused: (variables) => school.emails.indexOf(String(variables['email'])) % 5 >= 1 });
    // Rows 1-4 of every 5 cannot connect: 4 in a row, then row 5 is answered.
    const summary = await school.admin.grantCouponToMany(school.couponId, school.emails.map((email) => ({ email })), { concurrency: 1 });
    expect(summary.counts).toMatchObject({ created: 6, failed: 24 });
  });
});
