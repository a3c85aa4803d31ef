/**
 * The one place the `school-admin` command decides how wide its text may be and wraps it there:
 * help (through commander, see `configureCliOutput`), summaries, messages and per-row lines.
 */

/** Columns assumed when the output is not a terminal (a pipe, a file, a CI log) and `COLUMNS` says nothing. */
export const DEFAULT_COLUMNS = 80;

/** Narrower than this, wrapping would make a column of single words: the text is left as it is. */
const NARROWEST = 20;

/** What {@link outputColumns} reads of a stream. */
export interface SizedStream {
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}

/**
 * How wide text written to `stream` may be: the terminal's width when it is one; otherwise the
 * `COLUMNS` environment variable when it holds a positive number (as for `ls`); otherwise 80.
 *
 * @example
 * ```ts
 * outputColumns(process.stdout); // 80 in a pipe, the window's width in a terminal
 * ```
 */
export function outputColumns(stream: SizedStream, env: NodeJS.ProcessEnv = process.env): number {
  if (stream.isTTY === true && typeof stream.columns === 'number' && stream.columns > 0) return stream.columns;
  const fromEnv = Number(env['COLUMNS']);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_COLUMNS;
}

/** Options of {@link wrapText}. */
export interface WrapOptions {
  /**
   * Extra indentation of a line's continuation lines, beyond the line's own: 2 for messages, so a
   * wrapped message stays visibly one message; 0 for paragraphs.
   * @default 0
   */
  hangingIndent?: number | undefined;
}

/**
 * Wraps `text` at word boundaries so no line is longer than `columns`, never breaking a word (a
 * word longer than the line, such as a long path, stands alone on its line). Each line of `text`
 * is wrapped on its own, keeping its indentation (and the spacing inside it); continuation lines
 * get that indentation plus `hangingIndent`. A line that is a command to type (it starts, after
 * its indentation and an optional `$ `, with `school-admin `) is wrapped with a ` \` at the end
 * of each line but the last and its continuations indented by 4, so it can still be pasted into
 * a shell.
 *
 * @example
 * ```ts
 * wrapText('school-admin: Failed to read members.csv: the file is empty. Give a header row.', 40, { hangingIndent: 2 });
 * // 'school-admin: Failed to read members.csv:\n  the file is empty. Give a header row.'
 * ```
 */
export function wrapText(text: string, columns: number, options: WrapOptions = {}): string {
  return text
    .split('\n')
    .map((line) => wrapLine(line, columns, options.hangingIndent ?? 0))
    .join('\n');
}

/** A command line the reader may paste: `school-admin ...` or `$ school-admin ...`, indented or not. */
const COMMAND_LINE = /^ *(\$ )?school-admin /u;
/** Words with the spaces before them, so spacing inside the line (aligned columns) is kept. */
const WORDS = /\s*\S+/gu;
/** A shell word: quoted parts stay whole (a line break inside quotes would change the value). */
const SHELL_WORD = `(?:"[^"]*"|'[^']*'|[^\\s"'])+`;
/**
 * The chunks of a command line: an option with its value (`--csv members.csv`), another word, or
 * a trailing `# comment` (a continuation inside it would end it), each whole.
 */
const SHELL_WORDS = new RegExp(`\\s+#.*$|\\s*--?[\\w-]+(?:\\s+(?![-#])${SHELL_WORD})?|\\s*${SHELL_WORD}`, 'gu');

function wrapLine(line: string, columns: number, hanging: number): string {
  if (line.length <= columns) return line;
  if (COMMAND_LINE.test(line)) {
    const parts = greedyLines(line, columns - 2, 4, SHELL_WORDS);
    return parts.map((part, index) => (index < parts.length - 1 ? `${part} \\` : part)).join('\n');
  }
  return greedyLines(line, columns, hanging, WORDS).join('\n');
}

/** `line` cut into lines of at most `columns` at its spaces; continuations indented by its indentation plus `hanging`. */
function greedyLines(line: string, columns: number, hanging: number, words: RegExp): string[] {
  const indent = /^ */u.exec(line)?.[0] ?? '';
  const continuation = ' '.repeat(indent.length + hanging);
  if (columns - continuation.length < NARROWEST) return [line];
  const chunks = line.slice(indent.length).match(words) ?? [];
  const lines: string[] = [];
  let current = indent + (chunks.shift() ?? '');
  for (const chunk of chunks) {
    if (current.length + chunk.length <= columns) {
      current += chunk;
      continue;
    }
    lines.push(current);
    current = continuation + chunk.trimStart();
  }
  lines.push(current);
  return lines;
}

/**
 * Writes `text` to `stream` wrapped to the stream's width (see {@link outputColumns}), with a
 * hanging indent of 2 unless told otherwise: how every message and summary of the command is written.
 */
export function writeWrapped(stream: NodeJS.WritableStream & SizedStream, text: string, options: WrapOptions = { hangingIndent: 2 }): void {
  stream.write(wrapText(text, outputColumns(stream), options));
}
