import { crc32 } from 'node:zlib';
import { isJournalRecord, type JournalRecord } from './records.js';

// `{"crc":"<8 hex>","record":<record JSON>}`: still one JSON object per line, and the checksum
// covers the exact bytes of the record text, so no re-serialisation is needed to check it.
const PREFIX = '{"crc":"';
const MIDDLE = '","record":';
const SUFFIX = '}';
const CRC_LENGTH = 8;

const checksum = (text: string): string => crc32(text).toString(16).padStart(CRC_LENGTH, '0');

/** Encodes a record as one journal line, newline included. */
export function encodeRecordLine(record: JournalRecord): string {
  const text = JSON.stringify(record);
  return `${PREFIX}${checksum(text)}${MIDDLE}${text}${SUFFIX}\n`;
}

/** The result of reading one line (without its newline). */
export type DecodedLine =
  | { ok: true; record: JournalRecord }
  | { ok: false; reason: 'checksum_mismatch' | 'malformed_line' | 'invalid_record' };

/** Reads one journal line (without its newline), checking its checksum and its record's shape. */
export function decodeRecordLine(line: string): DecodedLine {
  const textStart = PREFIX.length + CRC_LENGTH + MIDDLE.length;
  if (!line.startsWith(PREFIX) || line.slice(PREFIX.length + CRC_LENGTH, textStart) !== MIDDLE || !line.endsWith(SUFFIX)) {
    return { ok: false, reason: 'malformed_line' };
  }
  const text = line.slice(textStart, line.length - SUFFIX.length);
  if (line.slice(PREFIX.length, PREFIX.length + CRC_LENGTH) !== checksum(text)) return { ok: false, reason: 'checksum_mismatch' };
  let record: unknown;
  try {
    record = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'malformed_line' };
  }
  return isJournalRecord(record) ? { ok: true, record } : { ok: false, reason: 'invalid_record' };
}
