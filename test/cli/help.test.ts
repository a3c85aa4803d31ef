import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createSimulator, seedDemoSchool } from '../../src/testing/index.js';
import { runCli, startCli } from './support/cli-process.js';

/** The ids the README's fragment snippets take as given (`declare const couponId: string`, ...). */
const README_IDS = [...readFileSync(new URL('../readme/fixtures/snippet-globals.d.ts.txt', import.meta.url), 'utf8').matchAll(/^declare const (\w+Id): string;$/gmu)].map((match) => match[1] as string);
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The id printed on the line naming `name` (`  couponId   d0000000-...  ALUMNI25, restricted`). */
function idNamed(text: string, name: string): string | undefined {
  return new RegExp(`^ +${name} +(${UUID}) `, 'mu').exec(text)?.[1];
}

describe.concurrent('school-admin --help for each command', () => {
  it.each([
    ['grant-coupon', ['--coupon <id>', '--csv <file>', '--journal <file>', '--report <file>', 'Exit status', 'ADMIN_API_URL', 'Examples:']],
    ['create-slots', ['--service <id>', '--tz <zone>', '--from <date>', '--to <date>', '--weekly <pattern>', '--capacity <n>', '--hosting <type>', '--host-email <email>', '--join-url <url>', '--title <text>', '--dry-run', '--atomic', 'Examples:']],
    ['cancel-meetings', ['--ids <file>', '--atomic', '--report <file>', 'already_canceled', 'Examples:']],
    ['mock-server', ['--port <port>', '--seed <seed>', '--rate-limit <n/window>']],
  ])('%s --help exits 0 and documents its options', async (command, expected) => {
    const run = await runCli([command, '--help']);
    expect(run.code).toBe(0);
    for (const text of expected) expect(run.stdout).toContain(text);
  });

  it('the program lists every command', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const command of ['grant-coupon', 'create-slots', 'cancel-meetings', 'mock-server']) expect(run.stdout).toContain(command);
  });
});

describe.concurrent('the mock server prints every id the README\'s examples need, and its --help says so', () => {
  it('--help lists each id a README snippet uses (snippet-globals), and the ids are records of the demo school', async () => {
    expect(README_IDS).toEqual(expect.arrayContaining(['couponId', 'courseId', 'serviceId', 'meetingId', 'fromMeetingId', 'toMeetingId', 'subscriptionId', 'userId', 'taId']));
    const run = await runCli(['mock-server', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("every id the README's examples need");
    const tables = seedDemoSchool(createSimulator()).seeder.school.tables;
    const ids = Object.fromEntries(README_IDS.map((name) => [name, idNamed(run.stdout, name)]));
    expect(Object.entries(ids).filter(([, id]) => id === undefined).map(([name]) => name)).toEqual([]);
    expect(tables.coupons.get(ids['couponId'] as string)?.restricted).toBe(true);
    expect(tables.courses.has(ids['courseId'] as string)).toBe(true);
    expect(tables.services.has(ids['serviceId'] as string)).toBe(true);
    // The reschedule example moves userId from fromMeetingId (where it is enrolled) to toMeetingId (open).
    expect(tables.meetings.get(ids['fromMeetingId'] as string)?.attendeeIds).toContain(ids['userId']);
    expect(tables.meetings.get(ids['toMeetingId'] as string)?.state).toBe('available');
    expect(tables.meetings.get(ids['meetingId'] as string)?.state).toBe('available');
  });

  it('"the mock server\'s banner should say which demo service is rated by a form and which by score" (issue 30)', async () => {
    const services = [...seedDemoSchool(createSimulator()).seeder.school.tables.services.values()];
    const byForm = services.filter((service) => service.ratingFormId !== null).map((service) => service.name);
    const byScore = services.filter((service) => service.ratingFormId === null).map((service) => service.name);
    expect([byForm, byScore]).toEqual([['Speech coaching'], ['Python office hours']]);
    const run = await runCli(['mock-server', '--help'], { COLUMNS: '' });
    // The line as shown at 80 columns, its wrapped part joined.
    const rating = /^ {2}rateMeeting +(.+\n(?: {18}.+\n)*)/mu.exec(run.stdout)?.[1]?.replace(/\n {18}/gu, ' ').trim();
    expect(rating).toBe(`${byScore[0]} is rated by score (0.5 to 10), ${byForm[0]} by the answers to its form`);
  });

  it('on start it prints the same ids as its --help', async () => {
    const help = await runCli(['mock-server', '--help']);
    const running = startCli(['mock-server', '--port', '0']);
    try {
      for (let tries = 0; tries < 200 && !running.output().stdout.includes('Press Ctrl-C'); tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      const banner = running.output().stdout;
      const printed = README_IDS.map((name) => idNamed(banner, name));
      expect(printed).not.toContain(undefined);
      expect(printed).toEqual(README_IDS.map((name) => idNamed(help.stdout, name)));
    } finally {
      running.child.kill('SIGTERM');
      await running.finished;
    }
  });
});

describe.concurrent('usage errors exit with status 2 and a "Failed to ...: reason. Remedy." line, before anything is sent', () => {
  it.each([
    ['a misspelt command', ['grant-coupons'], "unknown command 'grant-coupons'"],
    ['help for a command that does not exist', ['help', 'bogus'], "unknown command 'bogus'"],
    ['no command at all', [], 'Usage: school-admin'],
  ])('%s exits 2, on stderr', async (_case, args, text) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(text);
    expect(run.stdout).toBe('');
  });

  it('a missing required option', async () => {
    const run = await runCli(['grant-coupon', '--csv', 'members.csv']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("required option '--coupon <id>' not specified");
  });

  it('a malformed --rate-limit', async () => {
    const run = await runCli(['cancel-meetings', '--ids', 'x.txt', '--rate-limit', 'fast']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('expected <requests>/<window>');
  });

  it('ADMIN_API_URL or ADMIN_API_KEY missing', async () => {
    const noUrl = await runCli(['grant-coupon', '--coupon', 'c', '--csv', 'members.csv']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toMatch(/^school-admin: Failed to start grant-coupon: ADMIN_API_URL is not set\. Export /mu);
    const noKey = await runCli(['cancel-meetings', '--ids', 'ids.txt'], { ADMIN_API_URL: 'http://127.0.0.1:9' });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('ADMIN_API_KEY is not set');
  });

  it('an unusable ADMIN_API_URL, without echoing the key', async () => {
    const key = 'sk_live_secret_never_printed_123';
    const run = await runCli(['grant-coupon', '--coupon', 'c', '--csv', 'members.csv'], { ADMIN_API_URL: 'not a url', ADMIN_API_KEY: key });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('ADMIN_API_URL is not a valid URL');
    expect(run.stderr + run.stdout).not.toContain(key);
  });
});
