import { mkdtemp, readFile, rm, stat, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  JournalClosedError,
  JournalCorruptedError,
  JournalInputError,
  JournalIoError,
  JournalMismatchError,
  journalMemberKey,
  openJournal,
} from '../../src/workflows/journal.js';
import { encodeRecordLine } from '../../src/workflows/journal/record-line.js';

const COUPON = '0b9c2a51-0000-4000-8000-000000000001';
const fixedClock = () => new Date('2026-11-22T10:00:00.000Z');
let dir: string;
let path: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'journal-test-'));
  path = join(dir, 'grants.journal');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lines = async (): Promise<string[]> => (await readFile(path, 'utf8')).split('\n').slice(0, -1);

/** A journal with a header and `count` created members m0..m{count-1}, closed. */
async function journalWith(count: number): Promise<void> {
  const journal = await openJournal(path, { couponId: COUPON, now: fixedClock });
  for (let i = 0; i < count; i += 1) await journal.append({ member: { email: `m${i}@example.com` }, outcome: 'created', grantId: `g${i}` });
  await journal.close();
}

/** Replaces one character of line `index` (0-based, header = 0) inside its record text. */
async function damageLine(index: number): Promise<void> {
  const all = await lines();
  const line = all[index] ?? '';
  const at = line.indexOf('"member"') + 12;
  all[index] = `${line.slice(0, at)}${line[at] === 'Z' ? 'Y' : 'Z'}${line.slice(at + 1)}`;
  await writeFile(path, `${all.join('\n')}\n`);
}

describe('openJournal: an append-only JSON-lines file with a header and per-line checksums', () => {
  it('a new journal starts with a header naming the coupon and job', async () => {
    const journal = await openJournal(path, { couponId: COUPON, jobId: 'spring', now: fixedClock });
    expect(journal.header).toEqual({ type: 'header', version: 2, couponId: COUPON, jobId: 'spring', createdAt: '2026-11-22T10:00:00.000Z' });
    expect(journal.done.size).toBe(0);
    expect(journal.recovery).toBeNull();
    await journal.close();
    const [header] = await lines();
    expect(JSON.parse(header ?? '')).toMatchObject({ crc: expect.stringMatching(/^[0-9a-f]{8}$/), record: { type: 'header', couponId: COUPON } });
  });

  it('each member outcome is one JSON line with its checksum', async () => {
    const journal = await openJournal(path, { couponId: COUPON, now: fixedClock });
    const stored = await journal.append({ member: { email: ' Ada@Example.COM ' }, outcome: 'failed', error: { code: 'GENERAL-001', message: 'internal' } });
    await journal.close();
    expect(stored).toEqual({ type: 'outcome', member: 'ada@example.com', outcome: 'failed', error: { code: 'GENERAL-001', message: 'internal' }, at: '2026-11-22T10:00:00.000Z' });
    const all = await lines();
    expect(all).toHaveLength(2);
    expect(JSON.parse(all[1] ?? '').record).toEqual(stored);
  });

  it('member keys: email trimmed and lower-cased, or the user id', () => {
    expect(journalMemberKey({ email: '  Ada@Example.COM\t' })).toBe('ada@example.com');
    expect(journalMemberKey({ userId: ' 7e1f-AA ' })).toBe('7e1f-AA');
  });
});

describe('resume: created, already_granted and invalid are skipped; failed is retried', () => {
  it('reopening gives done and failed by member key', async () => {
    const first = await openJournal(path, { couponId: COUPON });
    await first.append({ member: { email: 'alice@example.com' }, outcome: 'created', grantId: 'g1' });
    await first.append({ member: { userId: 'u-2' }, outcome: 'already_granted', grantId: 'g2' });
    await first.append({ member: { email: 'not-an-email' }, outcome: 'invalid', error: { code: 'ENROLLMENT-002', message: 'user not found' } });
    await first.append({ member: { email: 'bob@example.com' }, outcome: 'failed', error: { message: 'network' } });
    await first.close();

    const resumed = await openJournal(path, { couponId: COUPON });
    expect([...resumed.done.keys()]).toEqual(['alice@example.com', 'u-2', 'not-an-email']);
    expect([...resumed.failed.keys()]).toEqual(['bob@example.com']);
    expect(resumed.done.get('alice@example.com')).toMatchObject({ outcome: 'created', grantId: 'g1' });
    expect(resumed.shouldSkip({ email: ' ALICE@example.com' })).toBe(true);
    expect(resumed.shouldSkip({ userId: 'u-2' })).toBe(true);
    expect(resumed.shouldSkip({ email: 'not-an-email' })).toBe(true);
    expect(resumed.shouldSkip({ email: 'bob@example.com' })).toBe(false);
    expect(resumed.shouldSkip({ email: 'carol@example.com' })).toBe(false);

    await resumed.append({ member: { email: 'bob@example.com' }, outcome: 'already_granted', grantId: 'g4' });
    expect(resumed.shouldSkip({ email: 'bob@example.com' })).toBe(true);
    expect(resumed.failed.size).toBe(0);
    await resumed.close();

    const again = await openJournal(path, { couponId: COUPON });
    expect(again.done.size).toBe(4);
    expect(again.failed.size).toBe(0);
    await again.close();
  });

  it('a final outcome is not undone by a later failure of the same member', async () => {
    const journal = await openJournal(path, { couponId: COUPON });
    await journal.append({ member: { userId: 'u-1' }, outcome: 'created', grantId: 'g1' });
    await journal.append({ member: { userId: 'u-1' }, outcome: 'failed', error: { message: 'timeout' } });
    await journal.close();
    const resumed = await openJournal(path, { couponId: COUPON });
    expect(resumed.shouldSkip({ userId: 'u-1' })).toBe(true);
    expect(resumed.failed.size).toBe(0);
    await resumed.close();
  });
});

describe('a torn or corrupted LAST line is dropped, reported and truncated away', () => {
  it('a last line without its newline (torn write) is dropped and the file truncated to the last whole line', async () => {
    await journalWith(3);
    const whole = (await stat(path)).size;
    const torn = encodeRecordLine({ type: 'outcome', member: 'm3@example.com', outcome: 'created', at: '2026-11-22T10:00:00.000Z' }).slice(0, 40);
    await appendFile(path, torn);

    const journal = await openJournal(path, { couponId: COUPON });
    expect(journal.recovery).toEqual({ line: 5, droppedBytes: Buffer.byteLength(torn), reason: 'torn_write' });
    expect([...journal.done.keys()]).toEqual(['m0@example.com', 'm1@example.com', 'm2@example.com']);
    expect((await stat(path)).size).toBe(whole);
    await journal.append({ member: { email: 'm3@example.com' }, outcome: 'created' });
    await journal.close();

    const reopened = await openJournal(path, { couponId: COUPON });
    expect(reopened.recovery).toBeNull();
    expect(reopened.done.size).toBe(4);
    await reopened.close();
  });

  it('a whole last line whose checksum does not match is dropped too', async () => {
    await journalWith(3);
    await damageLine(3);
    const journal = await openJournal(path, { couponId: COUPON });
    expect(journal.recovery).toMatchObject({ line: 4, reason: 'checksum_mismatch' });
    expect(journal.done.size).toBe(2);
    await journal.close();
    expect(await lines()).toHaveLength(3);
  });

  it('a journal holding only a torn header starts afresh', async () => {
    await writeFile(path, encodeRecordLine({ type: 'header', version: 1, couponId: COUPON, createdAt: 'x' }).slice(0, 25));
    const journal = await openJournal(path, { couponId: COUPON, now: fixedClock });
    expect(journal.recovery).toMatchObject({ line: 1, reason: 'torn_write' });
    expect(journal.header.createdAt).toBe('2026-11-22T10:00:00.000Z');
    await journal.close();
    expect(await lines()).toHaveLength(1);
  });
});

describe('damage before the last line is a JournalCorruptedError (never silently lost data)', () => {
  it('a middle line with a bad checksum names the line; the file is left untouched', async () => {
    await journalWith(4);
    await damageLine(2);
    const before = await readFile(path);
    await expect(openJournal(path, { couponId: COUPON })).rejects.toThrow(JournalCorruptedError);
    await expect(openJournal(path, { couponId: COUPON })).rejects.toMatchObject({ line: 3, reason: 'checksum_mismatch' });
    expect(await readFile(path)).toEqual(before);
  });

  it('a middle line that is not a journal line (malformed_line)', async () => {
    await journalWith(2);
    const all = await lines();
    all[1] = '{"member":"m0@example.com","outcome":"created"}';
    await writeFile(path, `${all.join('\n')}\n`);
    await expect(openJournal(path, { couponId: COUPON })).rejects.toMatchObject({ name: 'JournalCorruptedError', line: 2, reason: 'malformed_line' });
  });

  it('a file that does not start with a header (missing_header), or of an unknown version', async () => {
    const entry = encodeRecordLine({ type: 'outcome', member: 'a', outcome: 'created', at: 't' });
    await writeFile(path, entry + entry);
    await expect(openJournal(path, { couponId: COUPON })).rejects.toMatchObject({ line: 1, reason: 'missing_header' });
    await writeFile(path, encodeRecordLine({ type: 'header', version: 3, couponId: COUPON, createdAt: 't' }) + entry);
    await expect(openJournal(path, { couponId: COUPON })).rejects.toMatchObject({ line: 1, reason: 'unsupported_version' });
  });

  it('a second header after the first (invalid_record)', async () => {
    const header = encodeRecordLine({ type: 'header', version: 1, couponId: COUPON, createdAt: 't' });
    await writeFile(path, header + header + encodeRecordLine({ type: 'outcome', member: 'a', outcome: 'created', at: 't' }));
    await expect(openJournal(path, { couponId: COUPON })).rejects.toMatchObject({ line: 2, reason: 'invalid_record' });
  });
});

describe('a journal of another coupon or job is refused', () => {
  it('another couponId: JournalMismatchError, and the file is not repaired or changed', async () => {
    await journalWith(1);
    await appendFile(path, '{"crc":"00');
    const before = await readFile(path);
    await expect(openJournal(path, { couponId: 'another-coupon' })).rejects.toThrow(JournalMismatchError);
    await expect(openJournal(path, { couponId: 'another-coupon' })).rejects.toMatchObject({ field: 'couponId', expected: 'another-coupon', found: COUPON });
    expect(await readFile(path)).toEqual(before);
  });

  it('another jobId: refused; no jobId given: accepted', async () => {
    const journal = await openJournal(path, { couponId: COUPON, jobId: 'spring' });
    await journal.close();
    await expect(openJournal(path, { couponId: COUPON, jobId: 'autumn' })).rejects.toMatchObject({ name: 'JournalMismatchError', field: 'jobId', found: 'spring' });
    const anyJob = await openJournal(path, { couponId: COUPON });
    await anyJob.close();
  });
});

describe('appends', () => {
  it('concurrent appends are written one whole line each, in call order', async () => {
    const journal = await openJournal(path, { couponId: COUPON });
    await Promise.all(Array.from({ length: 50 }, (_, i) => journal.append({ member: { userId: `u${i}` }, outcome: 'created' })));
    await journal.close();
    const members = (await lines()).slice(1).map((line) => JSON.parse(line).record.member);
    expect(members).toEqual(Array.from({ length: 50 }, (_, i) => `u${i}`));
  });

  it('append after close is refused with JournalClosedError; close twice is harmless', async () => {
    const journal = await openJournal(path, { couponId: COUPON });
    await journal.close();
    await journal.close();
    await expect(journal.append({ member: { userId: 'u1' }, outcome: 'created' })).rejects.toThrow(JournalClosedError);
  });

  it('entries the journal could not read back are refused with JournalInputError, and nothing is written', async () => {
    const journal = await openJournal(path, { couponId: COUPON });
    await expect(journal.append({ member: { email: '  ' }, outcome: 'created' })).rejects.toMatchObject({ name: 'JournalInputError', field: 'member' });
    await expect(journal.append({ member: { userId: 'u1' }, outcome: 'failed' })).rejects.toMatchObject({ field: 'error' });
    await expect(journal.append({ member: { userId: 'u1' }, outcome: 'done' as 'created' })).rejects.toMatchObject({ field: 'outcome' });
    await expect(journal.append({ member: { userId: 'u1' }, outcome: 'created', grantId: '' })).rejects.toMatchObject({ field: 'grantId' });
    await journal.close();
    expect(await lines()).toHaveLength(1);
    await expect(openJournal(path, { couponId: '' })).rejects.toThrow(JournalInputError);
  });

  it('an unreadable path is a JournalIoError with the system code', async () => {
    await expect(openJournal(join(dir, 'missing-dir', 'j'), { couponId: COUPON })).rejects.toMatchObject({ name: 'JournalIoError', code: 'ENOENT' });
    await expect(openJournal(dir, { couponId: COUPON })).rejects.toThrow(JournalIoError);
  });
});
