/**
 * Lays rows out in aligned columns (the last column is not padded), header first, with a rule
 * under it.
 *
 * @example
 * ```ts
 * textTable(['#', 'status'], [['1', 'created'], ['2', 'failed']]);
 * // '#  status\n-  -------\n1  created\n2  failed\n'
 * ```
 */
export function textTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n') + '\n';
}
