import { wrapText } from './text-wrap.js';

/**
 * Lays rows out in aligned columns (the last column is not padded), header first, with a rule
 * under it. A last cell too long for `columns` wraps between words, its continuation lines
 * starting under the last column (or indented by 4 when that column starts too far right).
 *
 * @example
 * ```ts
 * textTable(['#', 'status'], [['1', 'created'], ['2', 'failed']]);
 * // '#  status\n-  -------\n1  created\n2  failed\n'
 * ```
 */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[], columns = Number.POSITIVE_INFINITY): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  const lastStart = widths.slice(0, -1).reduce((sum, width) => sum + width + 2, 0);
  const hanging = columns - lastStart >= 30 ? lastStart : 4;
  const wrapped = (cells: readonly string[]): string => (Number.isFinite(columns) ? wrapText(line(cells), columns, { hangingIndent: hanging }) : line(cells));
  // The rule under the last column is no wider than the room it has.
  const rule = widths.map((width, column) => '-'.repeat(column === widths.length - 1 ? Math.max(header[column]?.length ?? 0, Math.min(width, columns - lastStart)) : width));
  return [line(header), line(rule), ...rows.map(wrapped)].join('\n') + '\n';
}
