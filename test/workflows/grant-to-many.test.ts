import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodedError, InvalidInputError, JournalMismatchError, type GrantOutcome, type GrantProgress } from '../../src/index.js';
import { grantCouponToMany } from '../../src/workflows/grant-to-many.js';
import { openJournal } from '../../src/workflows/journal.js';
import { grantSchool, memberEmail } from './support/grant-school.js';
import { ScriptedGrants } from './support/scripted-grants.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'grant-to-many-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mutationsSent = (school: ReturnType<typeof grantSchool>): number => school.simulator.stats().requests.mutations;

async function* stream<T>(rows: readonly T[]): AsyncGenerator<T> {
  for (const row of rows) yield row;
}

describe('grantCouponToMany: one outcome per row', () => {
  it('created for a new grant, already_granted when the member already held an active grant', async () => {
    const school = grantSchool(5);
    await school.admin.grantCoupon(school.couponId, { email: school.emails[1] as string });
    const outcomes: GrantOutcome[] = [];
    const summary = await school.admin.grantCouponToMany(school.couponId, school.emails.slice(0, 3).map((email) => ({ email })), {
      onOutcome: (outcome) => void outcomes.push(outcome),
    });
    expect(outcomes.sort((a, b) => a.index - b.index).map((outcome) => outcome.outcome)).toEqual(['created', 'already_granted', 'created']);
    expect(summary).toMatchObject({ rows: 3, counts: { created: 2, already_granted: 1, failed: 0, invalid: 0, skipped: 0 }, allSucceeded: true, interrupted: false });
    expect([...school.activeGrantsByUser().values()]).toEqual([1, 1, 1]);
  });

  it('members given by userId are granted too', async () => {
    const school = grantSchool(3);
    const summary = await school.admin.grantCouponToMany(school.couponId, school.userIds.map((userId) => ({ userId })));
    expect(summary.counts.created).toBe(3);
    expect(school.activeGrantsByUser().size).toBe(3);
  });

  it('invalid rows (malformed email, both identifiers, neither, a non-UUID id) are reported and never sent', async () => {
    const school = grantSchool(2);
    const rows = [
      { email: 'not-an-email' },
      { email: school.emails[0], userId: school.userIds[0] },
      {},
      { email: '  ', userId: null },
      { userId: 'user-42' },
      { email: school.emails[1] },
    ];
    const outcomes: GrantOutcome[] = [];
    const summary = await school.admin.grantCouponToMany(school.couponId, rows, { onOutcome: (outcome) => void outcomes.push(outcome) });
    const invalid = outcomes.filter((outcome) => outcome.outcome === 'invalid').sort((a, b) => a.index - b.index);
    expect(invalid.map((outcome) => [outcome.index, outcome.reason, outcome.error.code])).toEqual([
      [0, 'invalid_email', undefined],
      [1, 'both_identifiers', 'COUPON-006'],
      [2, 'neither_identifier', 'COUPON-005'],
      [3, 'neither_identifier', 'COUPON-005'],
      [4, 'invalid_user_id', undefined],
    ]);
    expect(mutationsSent(school)).toBe(1);
    expect(summary).toMatchObject({ counts: { created: 1, invalid: 5 }, allSucceeded: false });
  });

  it('emails are trimmed and matched case-insensitively, as the server does', async () => {
    const school = grantSchool(1);
    const summary = await school.admin.grantCouponToMany(school.couponId, [{ email: `  ${(school.emails[0] as string).toUpperCase()} ` }]);
    expect(summary.counts.created).toBe(1);
  });

  it('failed carries the parsed error (ENROLLMENT-002 for a deleted member) and the job goes on', async () => {
    const school = grantSchool(2);
    const outcomes: GrantOutcome[] = [];
    const summary = await school.admin.grantCouponToMany(school.couponId, [{ email: school.deletedEmail }, { email: school.emails[0] }], {
      onOutcome: (outcome) => void outcomes.push(outcome),
    });
    const failed = outcomes.find((outcome) => outcome.outcome === 'failed');
    expect(failed?.outcome === 'failed' && failed.error).toMatchObject({ code: 'ENROLLMENT-002', name: 'CodedError' });
    expect(failed?.outcome === 'failed' && failed.error.message).not.toContain(school.deletedEmail);
    expect(summary).toMatchObject({ counts: { created: 1, failed: 1 }, allSucceeded: false });
  });
});

describe('grantCouponToMany: job-level errors stop the job', () => {
  it('a coupon that is not restricted (COUPON-003) rejects after one request: the first grant goes alone', async () => {
    const school = grantSchool(60);
    const open = school.simulator.seeder(school.simulator.school().id).addCoupon({ restricted: false });
    const error = await school.admin
      .grantCouponToMany(open.id, school.emails.map((email) => ({ email })), { concurrency: 4 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CodedError);
    expect((error as CodedError).code).toBe('COUPON-003');
    expect(mutationsSent(school)).toBe(1);
  });

  it('an unknown coupon (COUPON-001) rejects', async () => {
    const school = grantSchool(3);
    await expect(school.admin.grantCouponToMany('00000000-0000-4000-8000-00000000dead', [{ email: school.emails[0] }])).rejects.toMatchObject({ code: 'COUPON-001' });
  });

  it('a bad couponId, members value or option is refused before anything is sent', async () => {
    const school = grantSchool(1);
    await expect(school.admin.grantCouponToMany('', [])).rejects.toBeInstanceOf(InvalidInputError);
    await expect(school.admin.grantCouponToMany(school.couponId, 42 as never)).rejects.toMatchObject({ field: 'members' });
    await expect(school.admin.grantCouponToMany(school.couponId, [], { concurrency: 0 })).rejects.toMatchObject({ field: 'concurrency' });
    expect(mutationsSent(school)).toBe(0);
  });

  it('an onOutcome that throws (a report that cannot be written) stops the job and rejects with its error', async () => {
    const school = grantSchool(50);
    const error = await school.admin
      .grantCouponToMany(school.couponId, school.emails.map((email) => ({ email })), {
        concurrency: 2,
        onOutcome: () => {
          throw new Error('Failed to write report.csv: disk full.');
        },
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain('disk full');
    expect(mutationsSent(school)).toBeLessThanOrEqual(3);
  });

  it('an input that throws rejects with its error once the grants in flight settle', async () => {
    const school = grantSchool(3);
    async function* broken(): AsyncGenerator<{ email: string }> {
      yield { email: school.emails[0] as string };
      throw new Error('Failed to read members.csv: line 3 is not valid CSV.');
    }
    await expect(school.admin.grantCouponToMany(school.couponId, broken())).rejects.toThrow('line 3');
  });
});

describe('grantCouponToMany: streaming with flat memory', () => {
  it('never has more than `concurrency` grants in flight', async () => {
    const client = new ScriptedGrants();
    const rows = Array.from({ length: 40 }, (_, n) => ({ email: memberEmail(n) }));
    const job = grantCouponToMany(client, 'coupon-1', stream(rows), { concurrency: 7 });
    await client.passProbe();
    for (let round = 0; round < 6; round += 1) {
      await client.waitForPending(Math.min(7, 39 - round * 7));
      expect(client.inFlight).toBeLessThanOrEqual(7);
      client.succeedAll();
    }
    const summary = await job;
    expect(client.maxInFlight).toBe(7);
    expect(summary.counts.created).toBe(40);
  });

  it('reads the input no further ahead than the grants in flight', async () => {
    const school = grantSchool(300);
    let pulled = 0;
    let finished = 0;
    let maxAhead = 0;
    async function* members(): AsyncGenerator<{ email: string }> {
      for (const email of school.emails) {
        pulled += 1;
        maxAhead = Math.max(maxAhead, pulled - finished);
        yield { email };
      }
    }
    await school.admin.grantCouponToMany(school.couponId, members(), { concurrency: 10, onOutcome: () => void (finished += 1) });
    expect(finished).toBe(300);
    expect(maxAhead).toBeLessThanOrEqual(10);
  });

  it('the default concurrency is the client\'s mutation limit: after the first grant, the burst goes at once, less the slots a bulk job hands out across its first window', async () => {
    // Answers take a while, so every grant the job starts at once is in flight together; the window
    // is long enough that the first slot handed out across it (a third of the window in) comes after
    // the burst's answers on a loaded machine too (at 300 ms and a 2 s window it did not: 9 in flight).
    const school = grantSchool(30, { simulator: { latency: { afterHandlingMs: () => 200 } }, client: { limits: { mutations: { limit: 12, windowMs: 4_000 } } } });
    let peak = 0;
    let current = 0;
    school.admin.on('request', () => (peak = Math.max(peak, (current += 1))));
    school.admin.on('response', () => (current -= 1));
    await school.admin.grantCouponToMany(school.couponId, school.emails.slice(0, 12).map((email) => ({ email })));
    // The first grant goes alone (a probe); of the 11 permits left of the window, the bulk job's
    // first window keeps 3 (a quarter of 12) to hand out across the window: 8 go together.
    expect(peak).toBe(8);
  });
});

describe('grantCouponToMany: the journal makes a run resumable', () => {
  it('a second run with the same journal skips members done and retries the failed ones', async () => {
    const school = grantSchool(6, { client: { maxRetries: 0 } });
    const journal = join(dir, 'grants.journal');
    const rows = school.emails.map((email) => ({ email }));
    school.simulator.failNextExecution('createCouponGrant', 2);
    const first = await school.admin.grantCouponToMany(school.couponId, rows, { journal, concurrency: 1 });
    expect(first.counts).toMatchObject({ created: 4, failed: 2 });

    const outcomes: GrantOutcome[] = [];
    const second = await school.admin.grantCouponToMany(school.couponId, rows, { journal, onOutcome: (outcome) => void outcomes.push(outcome) });
    expect(second.counts).toMatchObject({ created: 2, skipped: 4, failed: 0 });
    const skipped = outcomes.filter((outcome) => outcome.outcome === 'skipped');
    expect(skipped.every((outcome) => outcome.outcome === 'skipped' && outcome.previous === 'created' && outcome.grantId !== undefined)).toBe(true);
    expect([...school.activeGrantsByUser().values()]).toEqual([1, 1, 1, 1, 1, 1]);
    expect(mutationsSent(school)).toBe(8);
  });

  it('invalid rows are not journaled: a resumed run reports them again', async () => {
    const school = grantSchool(1);
    const journal = join(dir, 'grants.journal');
    const rows = [{ email: 'broken' }, { email: school.emails[0] }];
    await school.admin.grantCouponToMany(school.couponId, rows, { journal });
    const second = await school.admin.grantCouponToMany(school.couponId, rows, { journal });
    expect(second.counts).toMatchObject({ invalid: 1, skipped: 1 });
    const reopened = await openJournal(journal, { couponId: school.couponId });
    expect(reopened.done.size).toBe(1);
    await reopened.close();
  });

  it('a journal written for another coupon is refused and nothing is sent', async () => {
    const school = grantSchool(2);
    const journal = join(dir, 'grants.journal');
    await (await openJournal(journal, { couponId: '00000000-0000-4000-8000-0000000000aa' })).close();
    await expect(school.admin.grantCouponToMany(school.couponId, [{ email: school.emails[0] }], { journal })).rejects.toBeInstanceOf(JournalMismatchError);
    expect(mutationsSent(school)).toBe(0);
  });

  it('the same member twice is never in flight twice; with a journal the second row is skipped', async () => {
    const client = new ScriptedGrants();
    const journal = join(dir, 'grants.journal');
    const outcomes: GrantOutcome[] = [];
    const job = grantCouponToMany(client, 'coupon-1', [{ email: 'ada@example.com' }, { email: 'ADA@example.com' }], {
      journal,
      onOutcome: (outcome) => void outcomes.push(outcome),
    });
    await client.waitForPending(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.sent).toHaveLength(1);
    client.succeedAll();
    await job;
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(['created', 'skipped']);
  });

  // The first row is the probe, sent alone: a duplicate right behind it would wait anyway. Here the
  // duplicate arrives while its member's grant is one of several in flight.
  it('a duplicate row behind the probe waits for the grant of the same member still in flight, then is skipped', async () => {
    const client = new ScriptedGrants();
    const journal = join(dir, 'grants.journal');
    const outcomes: GrantOutcome[] = [];
    const rows = [{ email: 'probe@example.com' }, { email: 'ada@example.com' }, { email: 'ADA@example.com' }, { email: 'bob@example.com' }];
    const job = grantCouponToMany(client, 'coupon-1', rows, { journal, concurrency: 4, onOutcome: (outcome) => void outcomes.push(outcome) });
    await client.passProbe();
    await client.waitForPending(2); // ada and bob; ADA waits for ada
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.sent.map((member) => member.email)).toEqual(['probe@example.com', 'ada@example.com', 'bob@example.com']);
    client.succeedAll();
    await job;
    expect(client.sent).toHaveLength(3);
    expect(outcomes.find((outcome) => outcome.index === 2)?.outcome).toBe('skipped');
  });

  it('without a journal the duplicate is sent after the first and the server answers already_granted', async () => {
    const school = grantSchool(1);
    const email = school.emails[0] as string;
    const summary = await school.admin.grantCouponToMany(school.couponId, [{ email }, { email: email.toUpperCase() }]);
    expect(summary.counts).toMatchObject({ created: 1, already_granted: 1 });
    expect(school.activeGrantsByUser().get(school.userIds[0] as string)).toBe(1);
  });
});

describe('grantCouponToMany: interrupting with a signal', () => {
  it('stops taking rows, lets the grants in flight finish and be journaled, and resolves interrupted', async () => {
    const client = new ScriptedGrants();
    const journal = join(dir, 'grants.journal');
    const controller = new AbortController();
    const rows = Array.from({ length: 20 }, (_, n) => ({ email: memberEmail(n) }));
    const job = grantCouponToMany(client, 'coupon-1', rows, { journal, concurrency: 5, signal: controller.signal, interruptGraceMs: 60_000 });
    await client.passProbe();
    await client.waitForPending(5);
    controller.abort();
    client.succeedAll();
    const summary = await job;
    expect(summary).toMatchObject({ interrupted: true, allSucceeded: false, rows: 6, unfinished: 0, counts: { created: 6 } });
    expect(client.sent).toHaveLength(6);
    const lines = (await readFile(journal, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1 + 6);

    const resumed = new ScriptedGrants();
    const rest = grantCouponToMany(resumed, 'coupon-1', rows, { journal });
    await resumed.passProbe();
    await resumed.waitForPending(13);
    resumed.succeedAll();
    expect((await rest).counts).toMatchObject({ skipped: 6, created: 14 });
    expect(new Set([...client.sent, ...resumed.sent].map((member) => member.email)).size).toBe(20);
  });

  it('grants still running when the grace period ends are cancelled: not journaled, counted unfinished', async () => {
    const client = new ScriptedGrants();
    const journal = join(dir, 'grants.journal');
    const controller = new AbortController();
    const rows = Array.from({ length: 10 }, (_, n) => ({ email: memberEmail(n) }));
    const job = grantCouponToMany(client, 'coupon-1', rows, { journal, concurrency: 3, signal: controller.signal, interruptGraceMs: 0 });
    await client.passProbe();
    await client.waitForPending(3);
    client.pending[0]?.succeed();
    controller.abort();
    const summary = await job;
    expect(summary).toMatchObject({ interrupted: true, unfinished: 2, counts: { created: 2 } });
    const reopened = await openJournal(journal, { couponId: 'coupon-1' });
    expect(reopened.done.size).toBe(2);
    await reopened.close();
  });

  it('a worker waiting on a stalled input is released by the interrupt (the job does not hang)', async () => {
    const client = new ScriptedGrants();
    const controller = new AbortController();
    async function* stalled(): AsyncGenerator<{ email: string }> {
      yield { email: 'ada@example.com' };
      await new Promise(() => undefined);
    }
    const job = grantCouponToMany(client, 'coupon-1', stalled(), { signal: controller.signal, concurrency: 2 });
    await client.passProbe();
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect(await job).toMatchObject({ interrupted: true, rows: 1, counts: { created: 1 } });
  });

  it('an already aborted signal sends nothing', async () => {
    const client = new ScriptedGrants();
    const summary = await grantCouponToMany(client, 'coupon-1', [{ email: 'ada@example.com' }], { signal: AbortSignal.abort() });
    expect(summary).toMatchObject({ rows: 0, interrupted: true });
    expect(client.sent).toHaveLength(0);
  });
});

describe('grantCouponToMany: progress', () => {
  it('reports done and total (an array\'s length) after every row, counts per outcome', async () => {
    const school = grantSchool(4);
    const seen: GrantProgress[] = [];
    await school.admin.grantCouponToMany(school.couponId, [...school.emails.map((email) => ({ email })), { email: 'x' }], { onProgress: (p) => void seen.push(p) });
    expect(seen.map((p) => p.done)).toEqual([1, 2, 3, 4, 5]);
    expect(seen.every((p) => p.total === 5)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ counts: { created: 4, invalid: 1 }, etaMs: 0 });
  });

  it('the total of a stream is unknown unless given', async () => {
    const school = grantSchool(2);
    const seen: GrantProgress[] = [];
    await school.admin.grantCouponToMany(school.couponId, stream(school.emails.map((email) => ({ email }))), { onProgress: (p) => void seen.push(p) });
    expect(seen.at(-1)).toMatchObject({ total: undefined, etaMs: undefined });
    await school.admin.grantCouponToMany(school.couponId, stream(school.emails.map((email) => ({ email }))), { total: 2, onProgress: (p) => void seen.push(p) });
    expect(seen.at(-1)?.total).toBe(2);
  });
});
