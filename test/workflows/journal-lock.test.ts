import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalLockedError } from '../../src/index.js';
import { grantCouponToMany } from '../../src/workflows/grant-to-many.js';
import { openJournal } from '../../src/workflows/journal.js';
import { ScriptedGrants } from './support/scripted-grants.js';

const COUPON = 'c0000000-0000-4000-8000-000000000001';
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const JOURNAL_MODULE = pathToFileURL(join(REPO, 'src/workflows/journal.ts')).href;

// Opens the journal, appends one line, says "open" (or "refused <reason>"), and holds the journal
// open until its stdin ends, then closes it.
const CHILD_SOURCE = `
import { openJournal } from ${JSON.stringify(JOURNAL_MODULE)};
const [path] = process.argv.slice(2);
let journal;
try {
  journal = await openJournal(path, { couponId: ${JSON.stringify(COUPON)} });
} catch (error) {
  process.stdout.write('refused ' + error.name + ' ' + error.reason + '\\n');
  process.exit(3);
}
await journal.append({ member: { email: 'child-' + process.pid + '@example.com' }, outcome: 'created', grantId: 'g' });
process.stdout.write('open\\n');
process.stdin.resume();
process.stdin.on('end', async () => {
  await journal.close();
  process.exit(0);
});
`;

let dir: string;
let journalPath: string;
const children: ChildProcess[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'journal-lock-'));
  journalPath = join(dir, 'grants.journal');
  await writeFile(join(dir, 'child.mts'), CHILD_SOURCE);
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** Starts a child that opens the journal; resolves with its first line ("open" or "refused ...") and the child. */
async function startChild(): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(dir, 'child.mts'), journalPath], { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    // 'close' comes after the child's output was read: a refused child's line is not lost to its exit.
    child.once('close', (code) => reject(new Error(`child exited with ${code} before a line: ${stderr}`)));
  });
  return { child, line };
}

const headers = async (): Promise<number> => (await readFile(journalPath, 'utf8')).split('\n').filter((line) => line.includes('"type":"header"')).length;

describe('openJournal: one run at a time ("the journal takes an exclusive lock")', () => {
  it('a second open of the same journal in one process is refused at once with JournalLockedError naming the file and what to do; after close it opens', async () => {
    const first = await openJournal(journalPath, { couponId: COUPON });
    const lock = JSON.parse(await readFile(`${journalPath}.lock`, 'utf8')) as Record<string, unknown>;
    expect(lock).toEqual({ pid: process.pid, host: hostname(), startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

    const error = await openJournal(journalPath, { couponId: COUPON }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JournalLockedError);
    expect(error).toMatchObject({ path: journalPath, lockPath: `${journalPath}.lock`, reason: 'running', holder: { pid: process.pid, host: hostname() } });
    expect((error as Error).message).toContain(`${journalPath} is in use by process ${process.pid} on this host`);
    expect((error as Error).message).toContain(`Let that job finish or stop it (Ctrl-C), then run again; if process ${process.pid} is no such job (its id reused after a reboot), delete ${journalPath}.lock.`);

    await first.close();
    expect(existsSync(`${journalPath}.lock`)).toBe(false);
    const again = await openJournal(journalPath, { couponId: COUPON });
    expect(again.staleLock).toBeNull();
    await again.close();
  });

  it('two runs started at once on one new journal: one opens it, the other is refused; the file gets one header', async () => {
    const results = await Promise.allSettled([openJournal(journalPath, { couponId: COUPON }), openJournal(journalPath, { couponId: COUPON })]);
    const opened = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(opened).toHaveLength(1);
    expect(refused.map((result) => result.reason)).toEqual([expect.any(JournalLockedError)]);
    await (opened[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof openJournal>>>).value.close();
    expect(await headers()).toBe(1);
  });

  it('a refused open (another coupon) releases the lock it took', async () => {
    await (await openJournal(journalPath, { couponId: COUPON })).close();
    await expect(openJournal(journalPath, { couponId: 'c0000000-0000-4000-8000-0000000000ff' })).rejects.toMatchObject({ name: 'JournalMismatchError' });
    expect(existsSync(`${journalPath}.lock`)).toBe(false);
  });

  it('a real second process: while a child holds the journal this process is refused (the child\'s pid named); once it closes, the journal opens', async () => {
    const { child, line } = await startChild();
    expect(line).toBe('open');
    const error = await openJournal(journalPath, { couponId: COUPON }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'JournalLockedError', reason: 'running', holder: { pid: child.pid } });
    child.stdin?.end();
    await once(child, 'exit');
    const journal = await openJournal(journalPath, { couponId: COUPON });
    expect(journal.done.size).toBe(1);
    await journal.close();
  });

  it('two processes started at once on one new journal: one opens it, the other is refused at once; one header', async () => {
    const [a, b] = await Promise.all([startChild(), startChild()]);
    expect([a.line, b.line].sort()).toEqual(['open', 'refused JournalLockedError running']);
    for (const { child } of [a, b]) child.stdin?.end();
    await Promise.all([a, b].map(({ child }) => (child.exitCode === null ? once(child, 'exit') : undefined)));
    expect(await headers()).toBe(1);
  });

  it('crash: after kill -9 of the process holding the lock, the next run takes the stale lock over and says whose it was', async () => {
    const { child, line } = await startChild();
    expect(line).toBe('open');
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(existsSync(`${journalPath}.lock`)).toBe(true);
    const journal = await openJournal(journalPath, { couponId: COUPON });
    expect(journal.staleLock).toMatchObject({ pid: child.pid, host: hostname() });
    expect(JSON.parse(await readFile(`${journalPath}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    await journal.close();
    expect(existsSync(`${journalPath}.lock`)).toBe(false);
  });

  it('a lock held on another host is refused (it cannot be checked from here), with the lock file to delete if that run is gone', async () => {
    await writeFile(`${journalPath}.lock`, JSON.stringify({ pid: 1, host: 'build-2.example', startedAt: '2026-11-20T10:00:00.000Z' }));
    const error = await openJournal(journalPath, { couponId: COUPON }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'JournalLockedError', reason: 'other_host', holder: { pid: 1, host: 'build-2.example' } });
    expect((error as Error).message).toContain(`If no job runs there any more, delete ${journalPath}.lock and run again`);
    expect(existsSync(journalPath)).toBe(false);
  });

  it('a lock file still empty (its run is writing its holder) is read again, so a run started at the same moment is refused as "running"', async () => {
    await writeFile(`${journalPath}.lock`, '');
    setTimeout(() => void writeFile(`${journalPath}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() })), 30);
    await expect(openJournal(journalPath, { couponId: COUPON })).rejects.toMatchObject({ name: 'JournalLockedError', reason: 'running', holder: { pid: process.pid } });
  });

  it('a lock file naming no process is refused, not taken over', async () => {
    await writeFile(`${journalPath}.lock`, '');
    await expect(openJournal(journalPath, { couponId: COUPON })).rejects.toMatchObject({ name: 'JournalLockedError', reason: 'unreadable', holder: null });
  });
});

describe('grantCouponToMany with a journal another run holds', () => {
  it('rejects with JournalLockedError before sending anything', async () => {
    const held = await openJournal(journalPath, { couponId: COUPON });
    const client = new ScriptedGrants();
    await expect(grantCouponToMany(client, COUPON, [{ email: 'ada@example.com' }], { journal: journalPath })).rejects.toBeInstanceOf(JournalLockedError);
    expect(client.sent).toEqual([]);
    await held.close();
  });
});
