import { InvalidInputError } from '../../errors/invalid-input-error.js';
import { NetworkError } from '../../errors/network-error.js';
import { JournalCorruptedError } from '../../workflows/journal/errors/journal-corrupted-error.js';
import { JournalIoError } from '../../workflows/journal/errors/journal-io-error.js';
import { JournalLockedError } from '../../workflows/journal/errors/journal-locked-error.js';
import { JournalMismatchError } from '../../workflows/journal/errors/journal-mismatch-error.js';
import { CliFailure } from './cli-failure.js';
import { CliUsageError } from './cli-usage-error.js';

/** The grant job's options as the command line names them. */
const FLAGS: Record<string, string> = { couponId: '--coupon', members: '--csv', concurrency: '--concurrency', journal: '--journal' };

/** What a connection that could not be made reads as, by its code. */
const CONNECTION_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed',
  ENETUNREACH: 'network unreachable',
  EHOSTUNREACH: 'host unreachable',
  EADDRNOTAVAIL: 'address not available',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** "connection refused (ECONNREFUSED)", or a plain "no connection" when the runtime gave no code. */
function connectionFailureText(code: string | undefined): string {
  if (code === undefined) return 'no connection';
  return `${CONNECTION_FAILURES[code] ?? 'no connection'} (${code})`;
}

/** The command line a journal problem is about. */
export interface GrantCommandLine {
  coupon: string;
  journal?: string;
}

/**
 * Words a grant job's error for the command line (by class and fields, never by message text):
 * a journal written for another coupon, a damaged journal, a journal another run holds and a
 * refused option are usage errors (exit 2: nothing was sent) naming the flag and the remedy; a
 * journal I/O error names --journal; a server that could not be reached (the job stops on its
 * first grant, or on several in a row) names the URL and ADMIN_API_URL. Other errors are returned
 * as they are.
 */
export function grantCommandError(error: unknown, command: GrantCommandLine): unknown {
  if (error instanceof JournalMismatchError) {
    const what = error.field === 'couponId' ? `coupon ${error.found ?? '(none)'}` : `job ${error.found ?? '(none)'}`;
    return new CliUsageError(
      `Failed to resume from the journal ${error.path}: it was written for ${what}, not --coupon ${command.coupon}. Nothing was sent. ` +
        `Give this coupon its own --journal file; or, if that other job is finished or abandoned, delete the journal (rm ${error.path}) and run again.`,
    );
  }
  if (error instanceof JournalCorruptedError) {
    return new CliUsageError(
      `Failed to resume from the journal ${error.path}: line ${error.line} is damaged (${error.reason.replaceAll('_', ' ')}). Nothing was sent and the file was left untouched. ` +
        `Restore it from a backup, or move it aside (mv ${error.path} ${error.path}.damaged) to start a new journal; members it recorded are then sent again and answered already_granted.`,
    );
  }
  if (error instanceof JournalLockedError) {
    const holder = error.holder === null ? 'another run' : `process ${error.holder.pid}${error.reason === 'other_host' ? ` on host ${error.holder.host}` : ''} (since ${error.holder.startedAt})`;
    const remedy =
      error.reason === 'running'
        ? `Let that run finish or stop it (Ctrl-C), then run the same command again to resume; if process ${error.holder?.pid ?? '?'} is no grant-coupon run (its id reused after a reboot), delete the lock (rm ${error.lockPath}).`
        : `If no grant-coupon run uses it any more, delete the lock (rm ${error.lockPath}) and run again.`;
    return new CliUsageError(`Failed to open the journal ${error.path} (--journal): ${holder} is writing it (lock ${error.lockPath}); one run at a time. Nothing was sent. ${remedy}`);
  }
  if (error instanceof JournalIoError) {
    return new CliFailure(
      `Failed to use the journal ${error.path} (--journal): I/O error ${error.code}. Check the path, its permissions and the free space, then run the same command again to resume.`,
    );
  }
  if (error instanceof NetworkError && !error.mayHaveReachedServer) {
    const resume = command.journal === undefined ? '' : ', then run the same command again (the journal skips the members done)';
    return new CliFailure(
      `Failed to reach the admin API at ${error.origin ?? 'ADMIN_API_URL'}: ${connectionFailureText(error.networkCode)}. The job stopped; grants not sent are left for another run. Check ADMIN_API_URL${resume}.`,
    );
  }
  if (error instanceof InvalidInputError && error.operation === 'grantCouponToMany') {
    const flag = FLAGS[error.field] ?? `--${error.field}`;
    return new CliUsageError(`Failed to start grant-coupon: ${flag} is not usable (${error.field === 'couponId' ? 'it is empty' : 'refused by the job'}). Check ${flag}.`);
  }
  return error;
}
