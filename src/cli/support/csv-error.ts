import { readFile } from 'node:fs/promises';

const QUOTE = 0x22;
const NEWLINE = 0x0a;

/** The fields of a csv-parse error this module reads (see csv-parse's CsvError). */
interface CsvParseError {
  code: string;
  /** The line the parser was on (for an unclosed quote: the end of the file). */
  lines?: number;
  /** Bytes of the records read before the error: where the record in trouble starts. */
  bytes?: number;
}

function isCsvParseError(error: unknown): error is CsvParseError {
  if (!(error instanceof Error)) return false;
  const code: unknown = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('CSV_');
}

/** What each csv-parse error means, with the fix, worded for someone editing the file. */
const PROBLEMS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field opens here and is never closed; add the closing quote (")',
  CSV_INVALID_CLOSING_QUOTE: 'a quoted field has more text after its closing quote; write a quote inside a quoted field as two quotes ("")',
  CSV_INVALID_OPENING_QUOTE: 'a quote stands inside an unquoted field; quote the whole field and write the quote as two quotes ("")',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'a quoted field has more text after its closing quote; write a quote inside a quoted field as two quotes ("")',
};

/**
 * The line of the quote that is still open at the end of `content`, scanning from byte `from`
 * (the start of the record in trouble). Quotes pair up, `""` inside a quoted field included, so
 * the last quote that opens a field without a partner is the culprit.
 */
function unclosedQuoteLine(content: Buffer, from: number): number | undefined {
  let line = 1;
  for (let index = 0; index < from; index += 1) if (content[index] === NEWLINE) line += 1;
  let openedAt: number | undefined;
  for (let index = from; index < content.length; index += 1) {
    const byte = content[index];
    if (byte === NEWLINE) line += 1;
    else if (byte === QUOTE) openedAt = openedAt === undefined ? line : undefined;
  }
  return openedAt;
}

/**
 * Where a CSV error is and what to do, for "Failed to read FILE: <this>. ...": "line 6: a quoted
 * field opens here and is never closed; add the closing quote (")". csv-parse reports an unclosed
 * quote at the end of the file; this finds the line where it opens.
 */
export function csvProblem(content: Buffer, error: unknown): string {
  if (!isCsvParseError(error)) return error instanceof Error ? error.message.replace(/\.$/u, '') : String(error);
  const problem = PROBLEMS[error.code] ?? `${error.code.toLowerCase().replaceAll('_', ' ')}`;
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
    const from = error.bytes !== undefined && error.bytes <= content.length ? error.bytes : 0;
    const line = unclosedQuoteLine(content, from) ?? unclosedQuoteLine(content, 0);
    if (line !== undefined) return `line ${line}: ${problem}`;
  }
  return error.lines === undefined ? problem : `line ${error.lines}: ${problem}`;
}

/** {@link csvProblem} for a file (read again: only on the error path). */
export async function csvFileProblem(path: string, error: unknown): Promise<string> {
  const content = await readFile(path).catch(() => Buffer.alloc(0));
  return csvProblem(content, error);
}
