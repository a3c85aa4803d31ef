import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { CliUsageError } from './cli-usage-error.js';
import { csvProblem } from './csv-error.js';

/** Meeting ids read from a file, each with its line (1-based). */
export interface MeetingIdList {
  ids: string[];
  lines: number[];
}

const ID_COLUMNS = new Set(['id', 'meetingid']);
const normalise = (name: string): string => name.toLowerCase().replace(/[\s_-]+/gu, '');

/**
 * Reads meeting ids: one per line (blank lines and `#` comments ignored), or a CSV whose header
 * has an `id` or `meetingId` column (recognised when the first line has a comma and names one).
 *
 * @throws {CliUsageError} when the file cannot be read, is not valid CSV, or lists no id.
 */
export async function readMeetingIds(path: string): Promise<MeetingIdList> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new CliUsageError(`Failed to read ${path}: the file does not exist or cannot be read. Check the path.`);
  }
  const firstLine = text.replace(/^\uFEFF/u, '').split(/\r?\n/u, 1)[0] ?? '';
  const header = firstLine.split(',').map(normalise);
  const list = firstLine.includes(',') || ID_COLUMNS.has(normalise(firstLine.trim())) ? fromCsv(path, text, header) : fromLines(text);
  if (list.ids.length === 0) throw new CliUsageError(`Failed to read ${path}: it lists no meeting id. Give one id per line, or a CSV with an id column.`);
  return list;
}

function fromLines(text: string): MeetingIdList {
  const ids: string[] = [];
  const lines: number[] = [];
  text
    .replace(/^\uFEFF/u, '')
    .split(/\r?\n/u)
    .forEach((raw, index) => {
      const id = raw.trim();
      if (id === '' || id.startsWith('#')) return;
      ids.push(id);
      lines.push(index + 1);
    });
  return { ids, lines };
}

function fromCsv(path: string, text: string, header: string[]): MeetingIdList {
  const column = header.findIndex((name) => ID_COLUMNS.has(name));
  if (column < 0) throw new CliUsageError(`Failed to read ${path}: the CSV header has no id or meetingId column. Name the column of meeting ids "id".`);
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true, from_line: 2 }) as unknown as typeof records;
  } catch (error) {
    throw new CliUsageError(`Failed to read ${path}: ${csvProblem(Buffer.from(text), error)}. Fix the CSV and run again.`);
  }
  const ids: string[] = [];
  const lines: number[] = [];
  for (const { record, info } of records) {
    const id = record[column]?.trim() ?? '';
    if (id === '') continue;
    ids.push(id);
    lines.push(info.lines);
  }
  return { ids, lines };
}
