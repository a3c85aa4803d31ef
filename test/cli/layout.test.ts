import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusedPort } from '../support/refused-port.js';
import { runCli } from './support/cli-process.js';
import { runCliInPty } from './support/pty.js';
import { useGrantWorkspace } from './support/grant-server.js';

/*
 * The command's text at the width of its output: the terminal's, or 80 columns when it is not a
 * terminal (`COLUMNS: ''` undoes the wide width test/cli runs get by default). Lines wrap between
 * words; a word is never cut.
 */

const AT_80 = { COLUMNS: '' };
const workspace = useGrantWorkspace('cli-layout-', 20, { limit: 50, windowMs: 1000 });

/** Lines longer than `columns`, with their length. */
const overLong = (text: string, columns: number): string[] => text.split('\n').filter((line) => line.length > columns).map((line) => `${line.length}: ${line}`);
/** The text's words in order: what wrapping must keep (it only changes the spaces between them). */
const words = (text: string): string[] => text.split(/\s+/u).filter(Boolean);
/** The same, with durations made equal (two runs of a job never take the same time). */
const wordsOfRun = (text: string): string[] => words(text.replace(/\d+(\.\d+)? ?(ms|s|min)\b/gu, 'T'));

describe.concurrent('every --help fits in 80 columns when the output is not a terminal', () => {
  it.each([[['--help']], [['help']], [['grant-coupon', '--help']], [['create-slots', '--help']], [['cancel-meetings', '--help']], [['mock-server', '--help']], [['help', 'grant-coupon']]])(
    'school-admin %j: exit 0, every line at most 80 columns',
    async (args) => {
      const run = await runCli(args, AT_80);
      expect(run.code).toBe(0);
      expect(run.stdout.split('\n').length).toBeGreaterThan(8);
      expect(overLong(run.stdout, 80)).toEqual([]);
    },
  );

  it('the help text after the options is the same words as at a wide width: wrapping only moved line breaks (examples get a `\\` to continue)', async () => {
    const [narrow, wide] = await Promise.all([runCli(['grant-coupon', '--help'], AT_80), runCli(['grant-coupon', '--help'])]);
    expect(words(narrow.stdout).filter((word) => word !== '\\')).toEqual(words(wide.stdout));
    expect(narrow.stdout).toMatch(/^ {2}\$ school-admin grant-coupon .* \\\n {6}--journal alumni\.journal/mu);
  });

  it('in a terminal, help follows the terminal\'s width (60 columns in a pty)', async () => {
    const run = await runCliInPty(['grant-coupon', '--help'], { env: {}, columns: 60 });
    expect(run.code).toBe(0);
    const text = run.transcript.replace(/\r/gu, '');
    expect(text).toContain('--retry-failed');
    expect(overLong(text, 60)).toEqual([]);
  });
});

describe.concurrent('summaries and messages wrap at 80 columns between words', () => {
  it('a failure summary (unknown members, invalid rows, each code\'s remedy): every line at most 80, the same words as unwrapped', async () => {
    // Two lists of the same shape (other members, so both runs create their grants).
    const grant = async (name: string, first: number): Promise<string[]> => {
      const csv = join(workspace.dir, name);
      await writeFile(csv, ['email', workspace.target.emails[first], 'ghost-one@cli.example', 'not-an-email', 'ghost-two@cli.example', workspace.target.emails[first + 1]].join('\n') + '\n');
      return ['grant-coupon', '--coupon', workspace.target.couponId, '--csv', csv, '--rate-limit', '50/1s'];
    };
    const narrow = await runCli(await grant('problems-80.csv', 0), { ...workspace.target.env, ...AT_80 });
    const wide = await runCli(await grant('problems-wide.csv', 2), workspace.target.env);
    expect([narrow.code, wide.code]).toEqual([1, 1]);
    expect(narrow.stdout).toContain('ENROLLMENT-002');
    expect(overLong(narrow.stdout, 80)).toEqual([]);
    expect(overLong(wide.stdout, 80).length).toBeGreaterThan(0);
    expect(wordsOfRun(narrow.stdout)).toEqual(wordsOfRun(wide.stdout.replaceAll('problems-wide.csv', 'problems-80.csv')));
  });

  it('an error message: at most 80 columns, continuation lines indented, the same words', async () => {
    const args = ['create-slots', '--service', 's', '--tz', 'Europe/Berlin', '--from', '2027-03-28', '--to', '2027-03-28', '--weekly', 'Sun 02:15-02:45'];
    const env = { ADMIN_API_URL: 'http://127.0.0.1:9', ADMIN_API_KEY: 'sk_live_layout_test_0000' };
    const [narrow, wide] = await Promise.all([runCli(args, { ...env, ...AT_80 }), runCli(args, env)]);
    expect([narrow.code, wide.code]).toEqual([2, 2]);
    expect(overLong(narrow.stderr, 80)).toEqual([]);
    expect(narrow.stderr.split('\n').slice(1, -1).every((line) => line.startsWith('  '))).toBe(true);
    expect(words(narrow.stderr)).toEqual(words(wide.stderr));
  });
});

describe.concurrent('messages name what the command line set (ADMIN_API_URL), never the SDK\'s option names', () => {
  it.each([
    ['grant-coupon', (csv: string) => ['grant-coupon', '--coupon', 'd0000000-0000-4000-8000-000000000081', '--csv', csv]],
    ['cancel-meetings', (csv: string) => ['cancel-meetings', '--ids', csv]],
  ])('%s against a server that refuses connections', { timeout: 60_000 }, async (_name, args) => {
    const csv = join(workspace.dir, `unreachable-${_name}.csv`);
    await writeFile(csv, _name === 'grant-coupon' ? 'email\nada@example.com\n' : 'd0000000-0000-4000-8000-0000000000aa\n');
    const run = await runCli(args(csv), { ADMIN_API_URL: `http://127.0.0.1:${await refusedPort()}`, ADMIN_API_KEY: 'sk_live_layout_test_0000', ...AT_80 });
    expect(run.code).toBe(1);
    const text = run.stdout + run.stderr;
    expect(text).toContain('ADMIN_API_URL');
    expect(text).not.toMatch(/\bbaseUrl\b|\bapiKey\b|maxResponseBytes|maxRateLimitWaitMs/u);
    expect(overLong(text, 80)).toEqual([]);
  });
});
