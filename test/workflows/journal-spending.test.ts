import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AdminClient, MemoryPermitStore, type PermitStore } from '../../src/index.js';
import type { EarlierSend } from '../../src/rate-limit/permit-store.js';
import { openJournal } from '../../src/workflows/journal.js';
import { decodeRecordLine, encodeRecordLine } from '../../src/workflows/journal/record-line.js';
import type { JournalRecord } from '../../src/workflows/journal/records.js';
import { readEarlierSpending, stillCounting, thisProcess } from '../../src/workflows/journal/spending.js';
import { startGrantServer, type GrantServer } from '../cli/support/grant-server.js';

/*
 * Issue 30, point 1: "the journal records when each request was sent (and the budget in force:
 * limit, window, learnt or configured)", and a resumed run in another process counts those that
 * may still count; its own process's store counted them already.
 */

const BUDGET = { limit: 50, windowMs: 5_000 };
let target: GrantServer;
let dir: string;
let path: string;
beforeAll(async () => {
  target = await startGrantServer(20, BUDGET);
});
afterAll(() => target.server.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'journal-spending-'));
  path = join(dir, 'grants.journal');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function records(): Promise<JournalRecord[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const decoded = decodeRecordLine(line);
      if (!decoded.ok) throw new Error(`unreadable line: ${line}`);
      return decoded.record;
    });
}

/** A store that reports what it was asked to seed. */
function seedSpy(): { store: PermitStore; seeded: EarlierSend[][] } {
  const memory = new MemoryPermitStore();
  const seeded: EarlierSend[][] = [];
  const store: PermitStore = {
    tryAcquire: (asked) => memory.tryAcquire(asked),
    release: (...args) => memory.release(...args),
    giveBack: (...args) => memory.giveBack(...args),
    pause: (...args) => memory.pause(...args),
    seed: async (bucket, sends, windowMs) => {
      seeded.push([...sends]);
      return memory.seed(bucket, sends, windowMs);
    },
  };
  return { store, seeded };
}

const client = (store: PermitStore): AdminClient => new AdminClient({ apiKey: target.apiKey, baseUrl: target.server.url, limits: { mutations: BUDGET, store } });

describe('the journal records what the job spent', () => {
  it('a run writes who runs it, the budget in force, and for each request a sent line before it arrives and an answered line', async () => {
    const before = Date.now();
    const summary = await client(new MemoryPermitStore()).grantCouponToMany(target.couponId, target.emails.slice(0, 3).map((email) => ({ email })), { journal: path });
    expect(summary.allSucceeded).toBe(true);
    const written = await records();
    expect(written[0]).toMatchObject({ type: 'header', version: 2 });
    expect(written[1]).toEqual({ type: 'run', process: thisProcess(), leaseMs: 35_000, atMs: expect.any(Number) });
    expect(written[2]).toEqual({ type: 'budget', limit: BUDGET.limit, windowMs: BUDGET.windowMs, source: 'configured', atMs: expect.any(Number) });
    const sent = written.filter((record) => record.type === 'sent');
    const answered = written.filter((record) => record.type === 'answered');
    expect(sent).toHaveLength(3);
    expect(answered.map((record) => record.type === 'answered' && record.request).sort()).toEqual(sent.map((record) => record.type === 'sent' && record.request).sort());
    expect(written.filter((record) => record.type === 'outcome')).toHaveLength(3);
    // Each request's line was written before it arrived (written at once, not queued behind others).
    const arrivals = target.simulator.requestLog().filter((entry) => entry.arrivedAt >= before && entry.operationType === 'mutations').map((entry) => entry.arrivedAt).sort((a, b) => a - b);
    const sentAt = sent.map((record) => (record.type === 'sent' ? record.atMs : 0)).sort((a, b) => a - b);
    sentAt.forEach((at, index) => expect(at).toBeLessThanOrEqual(arrivals[index] ?? 0));
  });

  it('a budget the server revealed is recorded as it changes, and adopted by a resumed run', () => {
    const earlier = readEarlierSpending([
      { type: 'run', process: 'other:1:1', atMs: 1 },
      { type: 'budget', limit: 200, windowMs: 60_000, source: 'default', atMs: 1 },
      { type: 'budget', limit: 20, windowMs: 2_000, source: 'server', atMs: 5 },
    ]);
    expect(earlier.budget).toMatchObject({ limit: 20, windowMs: 2_000, source: 'server' });
  });
});

describe('a resumed run counts what the earlier runs spent, once', () => {
  it('requests of another process still counting are seeded: answered ones until a window after the answer, unanswered ones until now or their lease\'s end', () => {
    const now = 1_000_000;
    const earlier = readEarlierSpending([
      { type: 'run', process: 'other:1:1', leaseMs: 3_000, atMs: now - 20_000 },
      { type: 'sent', request: 'a#1', atMs: now - 9_000 }, // answered long ago: no longer counts
      { type: 'answered', request: 'a#1', atMs: now - 8_000 },
      { type: 'sent', request: 'b#1', atMs: now - 1_000 }, // answered: counts until its answer + window
      { type: 'answered', request: 'b#1', atMs: now - 900 },
      { type: 'sent', request: 'c#1', atMs: now - 4_000 }, // never answered: until its lease's end
      { type: 'sent', request: 'd#1', atMs: now - 100 }, // never answered, its lease not over: until now
      { type: 'run', process: 'me:2:2', atMs: now - 50 },
      { type: 'sent', request: 'e#1', atMs: now - 10 }, // this process's own: its store counted it
    ]);
    expect(stillCounting(earlier, 'me:2:2', now, BUDGET.windowMs)).toEqual([
      { sentAt: now - 4_000, answeredAt: now - 1_000 },
      { sentAt: now - 1_000, answeredAt: now - 900 },
      { sentAt: now - 100, answeredAt: now },
    ]);
  });

  it('a run resumed in the same process (its store counted the first run\'s requests) seeds nothing; a journal of another process\'s run seeds its requests', async () => {
    const members = target.emails.slice(3, 9).map((email) => ({ email }));
    const first = seedSpy();
    const controller = new AbortController();
    let done = 0;
    await client(first.store).grantCouponToMany(target.couponId, members, { journal: path, concurrency: 1, signal: controller.signal, onOutcome: () => ++done === 3 && controller.abort() });
    const again = seedSpy();
    await client(again.store).grantCouponToMany(target.couponId, members, { journal: path });
    expect(again.seeded).toEqual([[]]);

    // The same journal as another process left it: its run record names someone else.
    const text = (await readFile(path, 'utf8')).split('\n').filter(Boolean).map((line) => {
      const decoded = decodeRecordLine(line);
      return decoded.ok && decoded.record.type === 'run' ? encodeRecordLine({ ...decoded.record, process: 'another-host:1:1' }).trimEnd() : line;
    });
    await writeFile(path, `${text.join('\n')}\n`);
    const third = seedSpy();
    await client(third.store).grantCouponToMany(target.couponId, members, { journal: path });
    // The first run's three (the last within the window); the second's ran under another process name now too.
    expect(third.seeded).toHaveLength(1);
    expect(third.seeded[0]?.length).toBeGreaterThanOrEqual(3);
  });

  it('a version 1 journal (an SDK before issue 30) is resumed as it is: no spending lines added, so that SDK can still read it', async () => {
    await writeFile(path, encodeRecordLine({ type: 'header', version: 1, couponId: target.couponId, createdAt: new Date().toISOString() }));
    const summary = await client(new MemoryPermitStore()).grantCouponToMany(target.couponId, target.emails.slice(9, 11).map((email) => ({ email })), { journal: path });
    expect(summary.allSucceeded).toBe(true);
    expect((await records()).map((record) => record.type)).toEqual(['header', 'outcome', 'outcome']);
    const journal = await openJournal(path, { couponId: target.couponId });
    expect(journal.header.version).toBe(1);
    await journal.close();
  });

  it('a spending line in a version 1 journal is damage, and an unknown version is refused', async () => {
    const header = (version: number) => encodeRecordLine({ type: 'header', version, couponId: target.couponId, createdAt: 't' });
    const outcome = encodeRecordLine({ type: 'outcome', member: 'a', outcome: 'created', at: 't' });
    await writeFile(path, header(1) + encodeRecordLine({ type: 'sent', request: 'x#1', atMs: 1 }) + outcome);
    await expect(openJournal(path, { couponId: target.couponId })).rejects.toMatchObject({ line: 2, reason: 'invalid_record' });
    await writeFile(path, header(3) + outcome);
    await expect(openJournal(path, { couponId: target.couponId })).rejects.toMatchObject({ line: 1, reason: 'unsupported_version' });
  });
});
