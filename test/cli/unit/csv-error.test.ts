import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countMemberRows, readMemberCsv } from '../../../src/cli/support/member-csv.js';
import { readMeetingIds } from '../../../src/cli/support/meeting-ids.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'csv-error-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function readAll(path: string): Promise<void> {
  for await (const _ of readMemberCsv(path)) {
    // drain
  }
}

const members = (lines: string[]): string => ['email,name', ...lines].join('\n') + '\n';

describe('CSV errors point at the offending line (the header is line 1)', () => {
  it('an unclosed quote on line 6 is reported at line 6, not at the end of the file (line 8)', async () => {
    const path = await file('members.csv', members(['a@x.example,Ada', 'b@x.example,Bob', 'c@x.example,Cy', 'd@x.example,Di', '"e@x.example,Eve', 'f@x.example,Fay', 'g@x.example,Gus']));
    const expected = /Failed to read .*members\.csv: line 6: a quoted field opens here and is never closed; add the closing quote \("\)\. Fix the file/u;
    await expect(countMemberRows(path)).rejects.toThrow(expected);
    await expect(readAll(path)).rejects.toThrow(expected);
  });

  it('with a BOM, blank lines and a properly quoted multi-line field before it', async () => {
    const path = await file('bom.csv', `\uFEFF${members(['a@x.example,"Ada', 'Lovelace"', '', 'b@x.example,"Bob ""B"" Smith"', 'c@x.example,"Cy'])}`);
    await expect(countMemberRows(path)).rejects.toThrow(/: line 6: a quoted field opens here and is never closed/u);
  });

  it('text after a closing quote is reported at its own line', async () => {
    const path = await file('closing.csv', members(['a@x.example,Ada', '"b@x.example"x,Bob', 'c@x.example,Cy']));
    await expect(countMemberRows(path)).rejects.toThrow(/: line 3: a quoted field has more text after its closing quote/u);
  });

  it('meeting-id CSVs too', async () => {
    const path = await file('ids.csv', 'id,note\nm-1,ok\nm-2,"unclosed\nm-3,ok\nm-4,ok\n');
    await expect(readMeetingIds(path)).rejects.toThrow(/Failed to read .*ids\.csv: line 3: a quoted field opens here and is never closed/u);
  });
});
