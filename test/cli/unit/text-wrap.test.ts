import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layoutHelpText } from '../../../src/cli/support/help-layout.js';
import { textTable } from '../../../src/cli/support/text-table.js';
import { outputColumns, wrapText } from '../../../src/cli/support/text-wrap.js';

const words = (text: string): string[] => text.split(/\s+/u).filter(Boolean);

describe('outputColumns: the terminal\'s width, else COLUMNS, else 80', () => {
  it.each([
    ['a terminal 120 wide', { isTTY: true, columns: 120 }, {}, 120],
    ['a terminal, whatever COLUMNS says', { isTTY: true, columns: 100 }, { COLUMNS: '200' }, 100],
    ['a pipe', { isTTY: false }, {}, 80],
    ['a pipe with COLUMNS=132', {}, { COLUMNS: '132' }, 132],
    ['a pipe with an unusable COLUMNS', {}, { COLUMNS: 'wide' }, 80],
    ['a pipe with COLUMNS empty', {}, { COLUMNS: '' }, 80],
  ])('%s', (_case, stream, env, columns) => {
    expect(outputColumns(stream, env)).toBe(columns);
  });
});

describe('wrapText: lines at most the width, broken between words only', () => {
  it('a message wraps with a hanging indent; a line that fits is left alone', () => {
    const message = 'school-admin: Failed to reach the server at ADMIN_API_URL: the connection failed (ECONNREFUSED) before a response arrived.';
    expect(wrapText(message, 40, { hangingIndent: 2 })).toBe(
      'school-admin: Failed to reach the server\n  at ADMIN_API_URL: the connection\n  failed (ECONNREFUSED) before a\n  response arrived.',
    );
    expect(wrapText('short enough', 40)).toBe('short enough');
  });

  it('keeps indentation and the spacing inside a line (aligned counts)', () => {
    expect(wrapText('  failed           2   (2 not sent again: permanent failures recorded by an earlier run)', 50, { hangingIndent: 2 })).toBe(
      '  failed           2   (2 not sent again:\n    permanent failures recorded by an earlier run)',
    );
  });

  it('a word longer than the line stands alone, whole', () => {
    const path = `/var/lib/school-admin/${'x'.repeat(60)}/members.csv`;
    expect(wrapText(`Failed to read ${path}: the file is empty.`, 40)).toBe(`Failed to read\n${path}:\nthe file is empty.`);
  });

  it('a command line wraps with ` \\` continuations, keeping an option with its value, quotes and a trailing comment whole', () => {
    const command = '  $ school-admin create-slots --service 5e0c --tz Europe/Berlin --weekly "Tue,Thu 10:00-11:00" --dry-run   # check first';
    expect(wrapText(command, 50)).toBe(['  $ school-admin create-slots --service 5e0c \\', '      --tz Europe/Berlin \\', '      --weekly "Tue,Thu 10:00-11:00" --dry-run \\', '      # check first'].join('\n'));
  });

  it('for any text and width of 30 or more: no line longer than the width unless it is one word, and the same words in the same order (property)', () => {
    const word = fc.stringMatching(/^[a-z(),.:;'-]{1,14}$/u);
    const line = fc.tuple(fc.nat({ max: 6 }), fc.array(fc.tuple(word, fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 30 }));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 5 }), fc.integer({ min: 30, max: 120 }), fc.nat({ max: 4 }), (lines, columns, hangingIndent) => {
        const text = lines.map(([indent, parts]) => ' '.repeat(indent) + parts.map(([text, spaces]) => text + ' '.repeat(spaces)).join('').trimEnd()).join('\n');
        const wrapped = wrapText(text, columns, { hangingIndent });
        expect(words(wrapped)).toEqual(words(text));
        for (const out of wrapped.split('\n')) if (out.length > columns) expect(words(out)).toHaveLength(1);
      }),
    );
  });
});

describe('layoutHelpText: paragraphs reflowed, tables hung under their description', () => {
  it('joins the lines of a paragraph written at any width, keeps blank lines and indented lines', () => {
    const text = 'The CSV needs a header row with an "email" and/or a "userId" column (other columns are\nignored), then one member per line.\n\nEnvironment:\n  ADMIN_API_URL   the school\'s base URL, without /admin/graphql (school-admin adds it)';
    expect(layoutHelpText(text, 50)).toBe(
      [
        'The CSV needs a header row with an "email" and/or',
        'a "userId" column (other columns are ignored),',
        'then one member per line.',
        '',
        'Environment:',
        "  ADMIN_API_URL   the school's base URL, without",
        '                  /admin/graphql (school-admin',
        '                  adds it)',
      ].join('\n'),
    );
  });
});

describe('textTable at a width: a long last cell wraps under its column', () => {
  it('continuation lines start under the last column; its rule is as wide as the room it has', () => {
    const table = textTable(['#', 'result'], [['1', 'failed MEETING-012: --host-user is neither the school owner nor a teaching assistant']], 50);
    expect(table).toBe(`#  result\n-  ${'-'.repeat(47)}\n1  failed MEETING-012: --host-user is neither the\n   school owner nor a teaching assistant\n`);
  });
});
