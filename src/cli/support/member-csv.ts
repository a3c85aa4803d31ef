import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { parse, type Parser } from 'csv-parse';
import type { GrantMemberRow } from '../../workflows/grant-to-many/types.js';
import { CliUsageError } from './cli-usage-error.js';
import { csvFileProblem } from './csv-error.js';

/** A member row of the CSV, with the line it is on (the header is line 1). */
export interface CsvMemberRow extends GrantMemberRow {
  line: number;
}

/**
 * Header names accepted for each column (compared lower-case, without spaces, `_` or `-`: `Email`,
 * `E-mail`, `email_address`, `userId`, `user_id`). A bare `id` is not taken: in a CRM export it is
 * usually the CRM's own id, not the school's member id.
 */
const COLUMN_NAMES = { email: new Set(['email', 'emailaddress']), userId: new Set(['userid']) };

const normalise = (name: string): string => name.toLowerCase().replace(/[\s_-]+/gu, '');

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

function openParser(path: string): Parser {
  const parser = parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true });
  const input = createReadStream(path);
  input.on('error', (error) => parser.destroy(error));
  parser.on('close', () => input.destroy());
  return input.pipe(parser);
}

async function readError(path: string, error: unknown): Promise<CliUsageError> {
  const problem = await csvFileProblem(path, error);
  return new CliUsageError(`Failed to read ${path}: ${problem}. Fix the file (a header row with an email and/or userId column, then one member per line) and run again.`);
}

/** Refuses a missing or unreadable file before anything is sent. */
export async function checkReadable(path: string): Promise<void> {
  try {
    await access(path);
  } catch {
    throw new CliUsageError(`Failed to read ${path}: the file does not exist or cannot be read. Check the path.`);
  }
}

/**
 * Streams the members of a CSV file: a header row naming an `email` and/or a `userId` column
 * (other columns are ignored), then one member per row. Rows are yielded one at a time as the file
 * is read (memory stays flat); a row with both or neither value is yielded as is, for the job to
 * report it `invalid`.
 *
 * @throws {CliUsageError} when the header has neither column, or the file is not valid CSV.
 * @example
 * ```ts
 * for await (const row of readMemberCsv('members.csv')) console.log(row.line, row.email ?? row.userId);
 * ```
 */
export async function* readMemberCsv(path: string): AsyncGenerator<CsvMemberRow> {
  const parser = openParser(path);
  let columns: { email: number; userId: number } | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<ParsedRecord>) {
      if (columns === undefined) {
        const names = record.map(normalise);
        columns = { email: names.findIndex((name) => COLUMN_NAMES.email.has(name)), userId: names.findIndex((name) => COLUMN_NAMES.userId.has(name)) };
        if (columns.email < 0 && columns.userId < 0) {
          throw new CliUsageError(`Failed to read ${path}: the header row has no email or userId column (found: ${record.slice(0, 5).join(', ') || 'nothing'}). Start the file with a header such as "email" or "userId".`);
        }
        continue;
      }
      yield {
        line: info.lines,
        ...(columns.email < 0 ? {} : { email: record[columns.email] ?? '' }),
        ...(columns.userId < 0 ? {} : { userId: record[columns.userId] ?? '' }),
      };
    }
  } catch (error) {
    throw error instanceof CliUsageError ? error : await readError(path, error);
  } finally {
    parser.destroy();
  }
  if (columns === undefined) throw new CliUsageError(`Failed to read ${path}: the file is empty. Give a header row and one member per line.`);
}

/** The number of member rows (records after the header), counted by streaming the file once. */
export async function countMemberRows(path: string): Promise<number> {
  let records = 0;
  try {
    for await (const _ of openParser(path)) records += 1;
  } catch (error) {
    throw await readError(path, error);
  }
  return Math.max(0, records - 1);
}
