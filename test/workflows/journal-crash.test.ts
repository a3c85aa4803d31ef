import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../src/workflows/journal.js';

const COUPON = 'c0000000-0000-4000-8000-000000000001';
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const JOURNAL_MODULE = pathToFileURL(join(REPO, 'src/workflows/journal.ts')).href;

// Appends members m0, m1, ... forever; says "ready" once `readyAfter` lines are written. Failed
// outcomes (every other line) carry an error message of `padding` characters.
const CHILD_SOURCE = `
import { openJournal } from ${JSON.stringify(JOURNAL_MODULE)};
const [path, padding, readyAfter] = process.argv.slice(2);
const journal = await openJournal(path, { couponId: ${JSON.stringify(COUPON)} });
const message = 'x'.repeat(Number(padding));
for (let i = 0; ; i += 1) {
  const member = { email: 'm' + i + '@example.com' };
  await journal.append(i % 2 === 0 ? { member, outcome: 'created', grantId: 'g' + i } : { member, outcome: 'failed', error: { message } });
  if (i + 1 === Number(readyAfter)) process.stdout.write('ready\\n');
}
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'journal-crash-'));
  await writeFile(join(dir, 'child.mts'), CHILD_SOURCE);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the child until it has written `readyAfter` lines, then SIGKILLs it during the next append. */
function runAndKill(path: string, padding: number, readyAfter: number): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(dir, 'child.mts'), path, String(padding), String(readyAfter)], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Once ready, kill as soon as the file grows again: with large lines that is inside a write.
    child.stdout.once('data', () => {
      const size = statSync(path).size;
      const killWhenGrowing = (): void => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        if (statSync(path).size === size) setImmediate(killWhenGrowing);
        else child.kill('SIGKILL');
      };
      killWhenGrowing();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(signal) : reject(new Error(`child exited with ${code}: ${stderr}`))));
  });
}

describe('a bulk job killed with SIGKILL while appending leaves a journal that opens cleanly', () => {
  it.each([
    ['small lines', 0, 40],
    ['lines of 4 MiB, run 1 (the kill often tears a write)', 4 * 1024 * 1024, 2],
    ['lines of 4 MiB, run 2', 4 * 1024 * 1024, 2],
    ['lines of 4 MiB, run 3', 4 * 1024 * 1024, 2],
  ])('%s', async (_what, padding, readyAfter) => {
    const path = join(dir, 'grants.journal');
    expect(await runAndKill(path, padding, readyAfter)).toBe('SIGKILL');

    const journal = await openJournal(path, { couponId: COUPON });
    if (journal.recovery !== null) expect(journal.recovery.reason).toBe('torn_write');
    const members = [...journal.done.keys(), ...journal.failed.keys()].sort((a, b) => Number(a.slice(1, -12)) - Number(b.slice(1, -12)));
    expect(members.length).toBeGreaterThanOrEqual(readyAfter);
    // No gap: every member up to the last recorded one is there, each with its own outcome.
    expect(members).toEqual(members.map((_, i) => `m${i}@example.com`));
    expect(journal.done.size).toBe(Math.ceil(members.length / 2));
    expect((await readFile(path)).at(-1)).toBe(0x0a);

    // Resuming appends after the repaired end, and the file stays valid.
    await journal.append({ member: { email: `m${members.length}@example.com` }, outcome: 'invalid' });
    await journal.close();
    const reopened = await openJournal(path, { couponId: COUPON });
    expect(reopened.recovery).toBeNull();
    expect(reopened.done.size + reopened.failed.size).toBe(members.length + 1);
    await reopened.close();
  });
});
