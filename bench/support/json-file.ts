import { writeFileSync } from 'node:fs';

/**
 * Writes `{ "context": ..., "<key>": [ ... ] }` with one item per line: compact, yet a diff of two
 * runs shows which cells changed.
 */
export function writeRunJson(file: string, context: unknown, key: string, items: readonly unknown[]): void {
  const lines = items.map((item) => JSON.stringify(item)).join(',\n');
  writeFileSync(file, `{"context":${JSON.stringify(context)},\n"${key}":[\n${lines}\n]}\n`);
}
