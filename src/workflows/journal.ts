import { open, readFile, truncate } from 'node:fs/promises';
import type { MemberRef } from '../client/types/types.js';
import { JournalInputError } from './journal/errors/journal-input-error.js';
import { JournalIoError } from './journal/errors/journal-io-error.js';
import { JournalMismatchError } from './journal/errors/journal-mismatch-error.js';
import { ioErrorCode } from './journal/io-error-code.js';
import type { JournalLockHolder } from './journal/errors/journal-locked-error.js';
import { lockJournal, type JournalLock } from './journal/journal-lock.js';
import { LineAppender } from './journal/line-appender.js';
import { journalMemberKey } from './journal/member-key.js';
import { encodeRecordLine } from './journal/record-line.js';
import {
  FINAL_OUTCOMES,
  JOURNAL_OUTCOMES,
  JOURNAL_VERSION,
  type JournalEntry,
  type JournalEntryError,
  type JournalHeader,
  type JournalOutcome,
  type JournalSpendingRecord,
} from './journal/records.js';
import { scanJournal, type JournalRecovery } from './journal/scan-journal.js';
import { learntBudget, readEarlierSpending, recordSpending, stillCounting, thisProcess, type SpendingSource, type SpendingTrack } from './journal/spending.js';

/** Options of {@link openJournal}. */
export interface OpenJournalOptions {
  /** The coupon the bulk grant job grants; a journal written for another coupon is refused. */
  couponId: string;
  /** An optional job label; when given, a journal whose header names another `jobId` is refused. */
  jobId?: string;
  /** Clock for the `createdAt`/`at` stamps. @default () => new Date() */
  now?: () => Date;
}

/** What to record for one finished member. */
export interface JournalEntryInput {
  member: MemberRef;
  outcome: JournalOutcome;
  /** The grant's id, when known (`created` and `already_granted`). */
  grantId?: string;
  /** Required for `failed`; allowed for `invalid` (why the row is unusable). */
  error?: JournalEntryError;
}

/** An open journal of a bulk grant job. */
export interface Journal {
  readonly path: string;
  readonly header: JournalHeader;
  /** Members with a final outcome (`created`, `already_granted`, `invalid`), by member key: skip them on resume. */
  readonly done: ReadonlyMap<string, JournalEntry>;
  /** Members whose latest outcome is `failed` and who have no final one, by member key: retry them. */
  readonly failed: ReadonlyMap<string, JournalEntry>;
  /** The damaged last line dropped at open (the file was truncated before it), or `null`. */
  readonly recovery: JournalRecovery | null;
  /**
   * The holder of a stale lock this journal took over at open (its process had died on this host:
   * a crash or a kill), or `null`. The lock (`<path>.lock`) is this journal's until `close()`.
   */
  readonly staleLock: JournalLockHolder | null;
  /** True when the member already has a final outcome (`failed` ones are retried, so `false`). */
  shouldSkip(member: MemberRef): boolean;
  /** Appends one whole line and records it in `done`/`failed`; resolves with the stored entry once written. */
  append(entry: JournalEntryInput): Promise<JournalEntry>;
  /**
   * For a job run with this journal (`grantCouponToMany`): has the limiter count the requests of
   * earlier runs in other processes that may still count (adopting a budget they learnt from the
   * server), then records this run's mutation requests, their answers and the budget in force
   * (journal/spending.ts). Call once, before the first request; `stop()` before `close()`. A
   * version 1 journal (written before these records) is neither read nor written this way. When
   * it fails (the store refused the earlier requests), the journal is closed and the error thrown.
   */
  trackSpending(source: SpendingSource): Promise<SpendingTrack>;
  /** Waits for pending appends, closes the file and removes the lock. */
  close(): Promise<void>;
}

const OPERATION = 'openJournal';
const APPEND = 'journal.append';

function requireText(value: unknown, field: string, operation: string): void {
  if (typeof value !== 'string' || value.trim() === '') throw new JournalInputError(field, 'must be a non-empty string', operation);
}

async function readExisting(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (cause) {
    if (ioErrorCode(cause) === 'ENOENT') return Buffer.alloc(0);
    throw new JournalIoError({ path, code: ioErrorCode(cause), operation: OPERATION, cause });
  }
}

function checkOwner(header: JournalHeader, options: OpenJournalOptions, path: string): void {
  if (header.couponId !== options.couponId) {
    throw new JournalMismatchError({ path, field: 'couponId', expected: options.couponId, found: header.couponId });
  }
  if (options.jobId !== undefined && header.jobId !== options.jobId) {
    throw new JournalMismatchError({ path, field: 'jobId', expected: options.jobId, found: header.jobId ?? null });
  }
}

function toEntry(input: JournalEntryInput, at: Date): JournalEntry {
  if (!JOURNAL_OUTCOMES.has(input.outcome)) throw new JournalInputError('outcome', 'is not created, already_granted, failed or invalid', APPEND);
  const member = journalMemberKey(input.member);
  if (member === '') throw new JournalInputError('member', 'has an empty email or userId', APPEND);
  if (input.grantId !== undefined) requireText(input.grantId, 'grantId', APPEND);
  if (input.outcome === 'failed' && input.error === undefined) {
    throw new JournalInputError('error', 'is required for a failed outcome', APPEND);
  }
  if (input.error !== undefined && (typeof input.error.message !== 'string' || !['string', 'undefined'].includes(typeof input.error.code))) {
    throw new JournalInputError('error', 'must be { code?: string, message: string }', APPEND);
  }
  const error = input.error === undefined ? undefined : { ...(input.error.code === undefined ? {} : { code: input.error.code }), message: input.error.message };
  return {
    type: 'outcome',
    member,
    outcome: input.outcome,
    ...(input.grantId === undefined ? {} : { grantId: input.grantId }),
    ...(error === undefined ? {} : { error }),
    at: at.toISOString(),
  };
}

/** Keeps `done` and `failed` as the file says: a final outcome wins over any failure. */
function remember(entry: JournalEntry, done: Map<string, JournalEntry>, failed: Map<string, JournalEntry>): void {
  if (FINAL_OUTCOMES.has(entry.outcome)) {
    done.set(entry.member, entry);
    failed.delete(entry.member);
  } else if (!done.has(entry.member)) {
    failed.set(entry.member, entry);
  }
}

/**
 * Opens (or creates) the append-only journal of a resumable bulk grant job: one JSON line per
 * finished member, each with a CRC-32 checksum, after a header naming the coupon (and job).
 *
 * Resume: members in `done` (`created`, `already_granted`, `invalid`) are skipped; `failed` members
 * are retried. A crash can at worst lose the line of a grant that was made; re-sending it is safe
 * because `createCouponGrant` is idempotent (it then reports `already_granted`).
 *
 * Recovery: a damaged LAST line (a write torn by a crash) is dropped, reported in `recovery`, and the
 * file truncated to the last whole line so later appends stay valid. Damage anywhere else throws
 * and leaves the file untouched.
 *
 * Lock: one run at a time may write a journal. Opening takes `<path>.lock` (created with `wx`,
 * holding the pid, host and start time; removed by `close()`); a second run is refused at once
 * with `JournalLockedError`, naming the file and what to do. A lock whose process died on this
 * host (a crash, `kill -9`) is taken over and reported in `staleLock`; one held on another host
 * is refused (this host cannot tell whether that process still runs).
 *
 * @throws {JournalLockedError} when another run (in this process or another) holds the journal's lock.
 * @throws {JournalMismatchError} when the file was written for another coupon or job (file untouched).
 * @throws {JournalCorruptedError} when a line other than the last is damaged.
 * @throws {JournalIoError} when the file cannot be read, repaired or opened for appending.
 * @throws {JournalInputError} for an empty `couponId` or `jobId`.
 * @example
 * ```ts
 * const journal = await openJournal('grants.journal', { couponId });
 * for (const member of members) {
 *   if (journal.shouldSkip(member)) continue;
 *   const { grant, created } = await admin.grantCoupon(couponId, member);
 *   await journal.append({ member, outcome: created ? 'created' : 'already_granted', grantId: grant.id });
 * }
 * await journal.close();
 * ```
 */
export async function openJournal(path: string, options: OpenJournalOptions): Promise<Journal> {
  requireText(options.couponId, 'couponId', OPERATION);
  if (options.jobId !== undefined) requireText(options.jobId, 'jobId', OPERATION);
  // Before the file is read: a second run is refused before it reads a header another is writing.
  const lock = await lockJournal(path);
  try {
    return await openLocked(path, options, lock);
  } catch (error) {
    await lock.release().catch(() => undefined);
    throw error;
  }
}

async function openLocked(path: string, options: OpenJournalOptions, lock: JournalLock): Promise<Journal> {
  const now = options.now ?? (() => new Date());
  const scanned = scanJournal(await readExisting(path), path);
  if (scanned.header !== null) checkOwner(scanned.header, options, path);

  let appender: LineAppender;
  try {
    if (scanned.recovery !== null) await truncate(path, scanned.goodLength);
    appender = new LineAppender(await open(path, 'a'), path);
  } catch (cause) {
    throw new JournalIoError({ path, code: ioErrorCode(cause), operation: OPERATION, cause });
  }

  let header = scanned.header;
  if (header === null) {
    header = {
      type: 'header',
      version: JOURNAL_VERSION,
      couponId: options.couponId,
      ...(options.jobId === undefined ? {} : { jobId: options.jobId }),
      createdAt: now().toISOString(),
    };
    try {
      await appender.append(encodeRecordLine(header), OPERATION);
    } catch (error) {
      await appender.close().catch(() => undefined);
      throw error;
    }
  }

  const done = new Map<string, JournalEntry>();
  const failed = new Map<string, JournalEntry>();
  for (const entry of scanned.entries) remember(entry, done, failed);
  const earlier = header.version >= JOURNAL_VERSION ? readEarlierSpending(scanned.spending) : undefined;
  const close = async (): Promise<void> => {
    try {
      await appender.close();
    } finally {
      await lock.release();
    }
  };

  return {
    path,
    header,
    done,
    failed,
    recovery: scanned.recovery,
    staleLock: lock.tookOver,
    shouldSkip: (member) => done.has(journalMemberKey(member)),
    async append(input) {
      const entry = toEntry(input, now());
      await appender.append(encodeRecordLine(entry), APPEND);
      remember(entry, done, failed);
      return entry;
    },
    async trackSpending(source) {
      if (earlier === undefined) return { earlierAnsweredAgoMs: [], stop: () => undefined };
      const me = thisProcess();
      const learnt = learntBudget(earlier);
      const nowMs = Date.now();
      // The longest window that may apply: what still counts under any of them is kept.
      const windowMs = Math.max(earlier.budget?.windowMs ?? 0, source.limiter?.budget('mutations').windowMs ?? 0);
      const sends = stillCounting(earlier, me, nowMs, windowMs);
      try {
        await source.limiter?.seedEarlier('mutations', sends, learnt);
      } catch (error) {
        await close().catch(() => undefined);
        throw error;
      }
      // Written at once: a request's line is in the file before the request leaves. A failed write
      // makes the next outcome's append fail, which stops the job with that error.
      const write = (record: JournalSpendingRecord): void => {
        try {
          appender.appendNow(encodeRecordLine(record), APPEND);
        } catch {
          // the appender is failed now
        }
      };
      const stop = recordSpending(write, source, me);
      return { earlierAnsweredAgoMs: sends.map((send) => nowMs - send.answeredAt), stop };
    },
    close,
  };
}

export { journalMemberKey };
export type { JournalRecovery, JournalEntry, JournalEntryError, JournalHeader, JournalOutcome };
export { JournalCorruptedError } from './journal/errors/journal-corrupted-error.js';
export type { JournalCorruptionReason } from './journal/errors/journal-corrupted-error.js';
export { JournalMismatchError } from './journal/errors/journal-mismatch-error.js';
export { JournalIoError } from './journal/errors/journal-io-error.js';
export { JournalLockedError } from './journal/errors/journal-locked-error.js';
export type { JournalLockedReason, JournalLockHolder } from './journal/errors/journal-locked-error.js';
export { JournalClosedError } from './journal/errors/journal-closed-error.js';
export { JournalInputError } from './journal/errors/journal-input-error.js';
