import type { AddHelpTextContext, Command } from 'commander';
import { outputColumns, wrapText } from './text-wrap.js';

/**
 * Makes commander lay out a command's help to the output's width (its own wrapping of usage,
 * descriptions and option lists) and wrap its error lines ("error: unknown option ...") there too.
 * Returns the command for chaining.
 */
export function fitToOutput(command: Command): Command {
  // Commander leaves a description unwrapped when less than 40 columns are left for it: wrap down to 20.
  command.configureHelp({ minWidthToWrap: 20 });
  return command.configureOutput({
    getOutHelpWidth: () => outputColumns(process.stdout),
    getErrHelpWidth: () => outputColumns(process.stderr),
    outputError: (text, write) => write(wrapText(text, outputColumns(process.stderr), { hangingIndent: 2 })),
  });
}

/**
 * Help text to show after commander's own (`addHelpText('after', helpText(TEXT))`), laid out at
 * the output's width when shown. `text` is written as plain lines:
 * - lines starting at column 0 form paragraphs (blank lines between them): they are joined and
 *   wrapped, so the source may break them anywhere;
 * - an indented `$ school-admin ...` is an example: it is wrapped with `\` continuations, so it
 *   can still be pasted into a shell (see `wrapText`);
 * - other indented lines are kept as lines; a `term   description` line (two or more spaces after
 *   its first word) wraps under its description.
 */
export function helpText(text: string): (context: AddHelpTextContext) => string {
  return (context) => layoutHelpText(text, outputColumns(context.error ? process.stderr : process.stdout));
}

/** {@link helpText} for a given width. */
export function layoutHelpText(text: string, columns: number): string {
  // Lines at column 0 that follow one another are one paragraph.
  return layoutLines(text.replace(/(?<=^\S[^\n]*)\n(?=\S)/gmu, ' '), columns);
}

/**
 * Lays out `text` line by line at `columns`, as {@link helpText} does but without joining lines
 * into paragraphs: a line at column 0 wraps flush left; an indented `term   description` line
 * under its description; other indented lines with a hanging indent of 2 (commands with `\`).
 */
export function layoutLines(text: string, columns: number): string {
  return text
    .split('\n')
    .map((line) => {
      const term = /^(\s+[^\s$]\S*\s{2,})\S/u.exec(line);
      const indent = /^\s*/u.exec(line)?.[0].length ?? 0;
      const hangingIndent = indent === 0 ? 0 : term === null ? 2 : (term[1] as string).length - indent;
      return wrapText(line, columns, { hangingIndent });
    })
    .join('\n');
}
