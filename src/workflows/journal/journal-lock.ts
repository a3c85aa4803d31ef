import { randomUUID } from 'node:crypto';
import { link, open, readFile, rename, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { JournalIoError } from './errors/journal-io-error.js';
import { JournalLockedError, type JournalLockedReason, type JournalLockHolder } from './errors/journal-locked-error.js';
import { ioErrorCode } from './io-error-code.js';

const OPERATION = 'openJournal';

/** A journal's lock, held until `release()`. */
export interface JournalLock {
  /** The lock file. */
  readonly lockPath: string;
  /** The holder of a lock this one replaced: its process had died on this host (a crash). */
  readonly tookOver: JournalLockHolder | null;
  /** Removes the lock file, unless another run has replaced it meanwhile. */
  release(): Promise<void>;
}

/**
 * Takes the exclusive lock of the journal at `path`: the file `<path>.lock`, created with `wx`
 * (it fails when the file exists, atomically, on local file systems), holding this process's pid,
 * host and start time. A lock whose process is no longer alive on this host is stale (its run
 * crashed or was killed): it is taken over and reported in `tookOver`.
 *
 * @throws {JournalLockedError} when a live process (this one included), a process on another
 *   host, or a lock file naming nobody holds it.
 * @throws {JournalIoError} when the lock file cannot be created, read or written.
 */
export async function lockJournal(path: string): Promise<JournalLock> {
  const lockPath = `${path}.lock`;
  const text = `${JSON.stringify({ pid: process.pid, host: hostname(), startedAt: new Date().toISOString() } satisfies JournalLockHolder)}\n`;
  let tookOver: JournalLockHolder | null = null;
  // A few rounds at most: a lock released or taken over meanwhile is looked at again.
  for (let round = 0; round < 3; round += 1) {
    if (await create(lockPath, text)) return held(lockPath, text, tookOver);
    const found = await readHolder(lockPath);
    if (found === undefined) continue;
    const holder = parseHolder(found);
    const reason = refusalFor(holder);
    if (reason !== undefined) throw new JournalLockedError({ path, lockPath, reason, holder });
    // Its process died on this host: the lock is stale.
    if (await removeStale(lockPath, found)) tookOver = holder;
  }
  const holder = parseHolder((await readLock(lockPath)) ?? '');
  throw new JournalLockedError({ path, lockPath, reason: refusalFor(holder) ?? 'running', holder });
}

/** Why a lock held by `holder` cannot be taken, or undefined when it is stale (its process died on this host). */
function refusalFor(holder: JournalLockHolder | null): JournalLockedReason | undefined {
  if (holder === null) return 'unreadable';
  if (holder.host !== hostname()) return 'other_host';
  return isAlive(holder.pid) ? 'running' : undefined;
}

/** Creates the lock file with `text`; false when it exists. */
async function create(lockPath: string, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, 'wx');
  } catch (cause) {
    if (ioErrorCode(cause) === 'EEXIST') return false;
    throw new JournalIoError({ path: lockPath, code: ioErrorCode(cause), operation: OPERATION, cause });
  }
  try {
    await handle.writeFile(text);
    await handle.close();
    return true;
  } catch (cause) {
    await handle.close().catch(() => undefined);
    await unlink(lockPath).catch(() => undefined);
    throw new JournalIoError({ path: lockPath, code: ioErrorCode(cause), operation: OPERATION, cause });
  }
}

/**
 * The lock file's text, read again for a moment while it names no one: a run creates the file
 * (`wx`) and writes its holder in two steps, and a run started at the same moment may read between.
 */
async function readHolder(lockPath: string): Promise<string | undefined> {
  let text = await readLock(lockPath);
  for (let wait = 0; wait < 5 && text !== undefined && parseHolder(text) === null; wait += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    text = await readLock(lockPath);
  }
  return text;
}

/** The lock file's text, or undefined when there is none. */
async function readLock(lockPath: string): Promise<string | undefined> {
  try {
    return await readFile(lockPath, 'utf8');
  } catch (cause) {
    if (ioErrorCode(cause) === 'ENOENT') return undefined;
    throw new JournalIoError({ path: lockPath, code: ioErrorCode(cause), operation: OPERATION, cause });
  }
}

/**
 * Moves the stale lock aside and deletes it. Renaming is atomic: if another run replaced the
 * stale lock with its own live one in between, what was moved is not the stale text, and it is
 * put back (false: that run holds the journal).
 */
async function removeStale(lockPath: string, staleText: string): Promise<boolean> {
  const aside = `${lockPath}.stale-${process.pid}-${randomUUID()}`;
  try {
    await rename(lockPath, aside);
  } catch (cause) {
    if (ioErrorCode(cause) === 'ENOENT') return true; // another run removed it first
    throw new JournalIoError({ path: lockPath, code: ioErrorCode(cause), operation: OPERATION, cause });
  }
  const moved = await readFile(aside, 'utf8').catch(() => staleText);
  if (moved !== staleText) await link(aside, lockPath).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
  return moved === staleText;
}

function held(lockPath: string, text: string, tookOver: JournalLockHolder | null): JournalLock {
  let released: Promise<void> | undefined;
  return {
    lockPath,
    tookOver,
    release: () => {
      released ??= (async () => {
        // Another run may have taken over a lock it thought stale (or someone deleted it): leave theirs alone.
        if ((await readLock(lockPath).catch(() => undefined)) !== text) return;
        await unlink(lockPath).catch((cause: unknown) => {
          if (ioErrorCode(cause) !== 'ENOENT') throw new JournalIoError({ path: lockPath, code: ioErrorCode(cause), operation: 'journal.close', cause });
        });
      })();
      return released;
    },
  };
}

function parseHolder(text: string): JournalLockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<JournalLockHolder> | null;
    if (typeof value?.pid === 'number' && Number.isInteger(value.pid) && value.pid > 0 && typeof value.host === 'string' && typeof value.startedAt === 'string') {
      return { pid: value.pid, host: value.host, startedAt: value.startedAt };
    }
  } catch {
    // Not JSON: an empty file from a run that crashed while taking the lock, or not ours at all.
  }
  return null;
}

/** True when a process with this id exists on this host (signal 0 checks without signalling). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return ioErrorCode(error) === 'EPERM';
  }
}
