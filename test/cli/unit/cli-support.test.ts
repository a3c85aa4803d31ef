import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDuration } from '../../../src/cli/support/duration-format.js';
import { countMemberRows, readMemberCsv } from '../../../src/cli/support/member-csv.js';
import { OrderedCsvWriter } from '../../../src/cli/support/ordered-csv-writer.js';
import { formatRateLimit, parseRateLimit } from '../../../src/cli/support/rate-limit-option.js';
import { rowErrorText } from '../../../src/cli/support/row-error-text.js';
import { textTable } from '../../../src/cli/support/text-table.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-support-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function rowsOf(content: string): Promise<unknown[]> {
  const path = join(dir, 'members.csv');
  await writeFile(path, content);
  const rows: unknown[] = [];
  for await (const row of readMemberCsv(path)) rows.push(row);
  return rows;
}

describe('members CSV: a header naming email and/or userId, then one member per line', () => {
  it('reads the email and userId columns by header name (any case, _ or -), with each row\'s line', async () => {
    const rows = await rowsOf('\uFEFFName,E-mail,user_id\nAda,ada@example.com,\n\nBob,,7e1f0c2a-0000-4000-8000-000000000001\n');
    expect(rows).toEqual([
      { line: 2, email: 'ada@example.com', userId: '' },
      { line: 4, email: '', userId: '7e1f0c2a-0000-4000-8000-000000000001' },
    ]);
  });

  it('rows with a missing column are read as they are (the job reports them invalid)', async () => {
    expect(await rowsOf('email,userId\nada@example.com\n')).toEqual([{ line: 2, email: 'ada@example.com', userId: '' }]);
  });

  it('a bare "id" column is not taken for userId (a CRM id is not a member id)', async () => {
    await expect(rowsOf('id,name\n17,Ada\n')).rejects.toThrow('the header row has no email or userId column');
  });

  it('an empty file and malformed CSV are refused with the file name', async () => {
    await expect(rowsOf('')).rejects.toThrow('the file is empty');
    await expect(rowsOf('email\n"ada@example.com\n')).rejects.toThrow(/Failed to read .*members\.csv/u);
  });

  it('counts member rows without the header', async () => {
    const path = join(dir, 'count.csv');
    await writeFile(path, 'email\na@x.example\n\nb@x.example\n');
    expect(await countMemberRows(path)).toBe(2);
  });
});

describe('report writer: records in input order although they finish out of order', () => {
  it('holds a record until every earlier one is written', async () => {
    const path = join(dir, 'report.csv');
    const writer = await OrderedCsvWriter.open<{ n: number; v: string }>(path, ['n', 'v']);
    await writer.write(2, { n: 2, v: 'c' });
    await writer.write(0, { n: 0, v: 'a' });
    await writer.write(1, { n: 1, v: 'b, with a comma' });
    await writer.close();
    expect(await readFile(path, 'utf8')).toBe('n,v\n0,a\n1,"b, with a comma"\n2,c\n');
  });

  it('on close, records after a gap (an interrupted run) are still written, in order', async () => {
    const path = join(dir, 'gap.csv');
    const writer = await OrderedCsvWriter.open<{ n: number }>(path, ['n']);
    await writer.write(3, { n: 3 });
    await writer.write(0, { n: 0 });
    await writer.write(2, { n: 2 });
    await writer.close();
    expect(await readFile(path, 'utf8')).toBe('n\n0\n2\n3\n');
  });
});

describe('--rate-limit <requests>/<window>', () => {
  it.each([
    ['200/60s', { limit: 200, windowMs: 60_000 }],
    ['200/1m', { limit: 200, windowMs: 60_000 }],
    ['2000/1s', { limit: 2000, windowMs: 1000 }],
    ['50/500ms', { limit: 50, windowMs: 500 }],
    ['200/m', { limit: 200, windowMs: 60_000 }],
  ])('%s', (text, budget) => {
    expect(parseRateLimit(text)).toEqual(budget);
  });

  it('formats a budget back the way the option takes it', () => {
    expect([{ limit: 200, windowMs: 60_000 }, { limit: 50, windowMs: 500 }].map(formatRateLimit)).toEqual(['200/60s', '50/500ms']);
  });

  it.each(['200', '0/60s', 'x/1s', '200/0s', '-5/1s'])('refuses %s', (text) => {
    expect(() => parseRateLimit(text)).toThrow('expected <requests>/<window>');
  });
});

describe('terminal formatting', () => {
  it('durations read like a person would say them', () => {
    expect([0, 850, 42_000, 185_000, 7_620_000].map(formatDuration)).toEqual(['0 s', '850 ms', '42 s', '3m 05s', '2h 07m']);
  });

  it('a row error shows its code once', () => {
    expect(rowErrorText('MEETING-001', 'MEETING-001: meeting not found')).toBe('MEETING-001: meeting not found');
    expect(rowErrorText('MEETING-012', 'host is not a teaching assistant')).toBe('MEETING-012 host is not a teaching assistant');
    expect(rowErrorText(undefined, 'Rolled back')).toBe('Rolled back');
  });

  it('tables align columns under a rule', () => {
    expect(textTable(['#', 'status'], [['1', 'created'], ['10', 'failed']])).toBe('#   status\n--  -------\n1   created\n10  failed\n');
  });
});

describe('report writer under backpressure', () => {
  it('many writers held up by a full buffer share one wait for drain (no listener pile-up, no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const path = join(dir, 'pressure.csv');
      const writer = await OrderedCsvWriter.open<{ n: number; text: string }>(path, ['n', 'text']);
      const text = 'x'.repeat(2_000);
      await Promise.all(Array.from({ length: 300 }, (_, n) => writer.write(n, { n, text })));
      await writer.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
      expect((await readFile(path, 'utf8')).trim().split('\n')).toHaveLength(301);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
