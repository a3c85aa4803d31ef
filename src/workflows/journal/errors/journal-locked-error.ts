import { AdminApiError } from '../../../errors/admin-api-error.js';

/** Who holds a journal's lock, as its lock file says. */
export interface JournalLockHolder {
  /** The process id. */
  readonly pid: number;
  /** The host name (`os.hostname()`) of the process. */
  readonly host: string;
  /** ISO 8601 time the lock was taken. */
  readonly startedAt: string;
}

/**
 * Why the lock could not be taken: `running` (a live process on this host holds it, this one
 * included), `other_host` (a process on another host holds it, which this host cannot check) or
 * `unreadable` (the lock file names no process: a run is taking it right now, or one crashed
 * while taking it).
 */
export type JournalLockedReason = 'running' | 'other_host' | 'unreadable';

/**
 * Thrown by `openJournal` (and so by `grantCouponToMany` with `journal`) when another run holds
 * the journal's lock (`<journal>.lock`, created with the `wx` flag, removed on close): one process
 * at a time may write a journal. Nothing was read, written or sent. A lock left by a process that
 * died on this host is taken over instead (see `Journal.staleLock`).
 */
export class JournalLockedError extends AdminApiError {
  override name = 'JournalLockedError';
  /** The journal file. */
  readonly path: string;
  /** The lock file (`<path>.lock`). */
  readonly lockPath: string;
  /** Why the lock could not be taken. */
  readonly reason: JournalLockedReason;
  /** The holder the lock file names (`null` when it names none). */
  readonly holder: JournalLockHolder | null;

  constructor(details: { path: string; lockPath: string; reason: JournalLockedReason; holder: JournalLockHolder | null }) {
    super(lockedMessage(details), { operation: 'openJournal' });
    this.path = details.path;
    this.lockPath = details.lockPath;
    this.reason = details.reason;
    this.holder = details.holder;
  }

  protected override jsonFields(): Record<string, unknown> {
    return { path: this.path, lockPath: this.lockPath, reason: this.reason, holder: this.holder };
  }
}

function lockedMessage({ path, lockPath, reason, holder }: { path: string; lockPath: string; reason: JournalLockedReason; holder: JournalLockHolder | null }): string {
  const since = holder === null ? '' : ` since ${holder.startedAt}`;
  switch (reason) {
    case 'running':
      return (
        `Failed to openJournal: ${path} is in use by process ${holder?.pid ?? '?'} on this host${since} (lock file ${lockPath}); one process at a time may write a journal. ` +
        `Let that job finish or stop it (Ctrl-C), then run again; if process ${holder?.pid ?? '?'} is no such job (its id reused after a reboot), delete ${lockPath}.`
      );
    case 'other_host':
      return (
        `Failed to openJournal: ${path} is locked by process ${holder?.pid ?? '?'} on host ${holder?.host ?? '?'}${since} (lock file ${lockPath}), which cannot be checked from here. ` +
        `If no job runs there any more, delete ${lockPath} and run again; otherwise let that job finish.`
      );
    case 'unreadable':
      return (
        `Failed to openJournal: ${lockPath} exists but names no process (a run may be taking the lock right now, or one crashed while taking it). ` +
        `If no job uses ${path}, delete ${lockPath} and run again.`
      );
  }
}
