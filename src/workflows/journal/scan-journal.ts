import { JournalCorruptedError, type JournalCorruptionReason } from './errors/journal-corrupted-error.js';
import { decodeRecordLine } from './record-line.js';
import { READABLE_VERSIONS, type JournalEntry, type JournalHeader, type JournalRecord, type JournalSpendingRecord } from './records.js';

const NEWLINE = 0x0a;

/** A damaged last line that reading left out (and that the file is truncated to drop). */
export interface JournalRecovery {
  /** 1-based number of the dropped line. */
  line: number;
  /** How many bytes were dropped. */
  droppedBytes: number;
  /** `torn_write`: the line has no newline (an append cut short); otherwise why its content failed. */
  reason: 'torn_write' | 'checksum_mismatch' | 'malformed_line' | 'invalid_record';
}

/** What a journal file holds once read. */
export interface ScannedJournal {
  /** `null` for an empty file (or one whose only line was dropped). */
  header: JournalHeader | null;
  entries: JournalEntry[];
  /** What earlier runs spent (version 2), in file order. */
  spending: JournalSpendingRecord[];
  /** Length in bytes of the trusted part (everything before a dropped last line). */
  goodLength: number;
  recovery: JournalRecovery | null;
}

function corrupted(path: string, line: number, reason: JournalCorruptionReason): JournalCorruptedError {
  return new JournalCorruptedError({ path, line, reason });
}

/** Splits the file into whole checked lines; a damaged LAST line becomes a recovery, any other damage throws. */
function readLines(content: Buffer, path: string): { records: JournalRecord[]; goodLength: number; recovery: JournalRecovery | null } {
  const records: JournalRecord[] = [];
  let offset = 0;
  let line = 0;
  while (offset < content.length) {
    line += 1;
    const end = content.indexOf(NEWLINE, offset);
    if (end === -1) {
      return { records, goodLength: offset, recovery: { line, droppedBytes: content.length - offset, reason: 'torn_write' } };
    }
    const decoded = decodeRecordLine(content.toString('utf8', offset, end));
    if (!decoded.ok) {
      if (end + 1 === content.length) {
        return { records, goodLength: offset, recovery: { line, droppedBytes: end + 1 - offset, reason: decoded.reason } };
      }
      throw corrupted(path, line, decoded.reason);
    }
    records.push(decoded.record);
    offset = end + 1;
  }
  return { records, goodLength: offset, recovery: null };
}

/**
 * Reads a journal file's bytes: checks every line's checksum, that the first line is a header of a
 * known version and that every other line is an outcome or (version 2) a spending record.
 *
 * @throws {JournalCorruptedError} for damage anywhere but the last line.
 */
export function scanJournal(content: Buffer, path: string): ScannedJournal {
  const { records, goodLength, recovery } = readLines(content, path);
  const [first, ...rest] = records;
  if (first === undefined) return { header: null, entries: [], spending: [], goodLength, recovery };
  if (first.type !== 'header') throw corrupted(path, 1, 'missing_header');
  if (!READABLE_VERSIONS.has(first.version)) throw corrupted(path, 1, 'unsupported_version');
  const entries: JournalEntry[] = [];
  const spending: JournalSpendingRecord[] = [];
  rest.forEach((record, index) => {
    if (record.type === 'outcome') entries.push(record);
    else if (record.type !== 'header' && first.version >= 2) spending.push(record);
    else throw corrupted(path, index + 2, 'invalid_record');
  });
  return { header: first, entries, spending, goodLength, recovery };
}
