import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_IDS, startMockServer, type MockServer } from '../../src/testing/index.js';
import { runCli } from './support/cli-process.js';

let server: MockServer;
let env: Record<string, string>;
beforeAll(async () => {
  server = await startMockServer({ seed: 'demo' });
  env = { ADMIN_API_URL: server.url, ADMIN_API_KEY: DEMO_API_KEY };
});
afterAll(async () => {
  await server.close();
});

/** Names of the SDK's internals and API fields a CLI user never typed. */
const INTERNAL_NAMES = /weeklySlots|openJournal|joinUrl|baseUrl|hostUserId|hostEmail|\brow 0\b|Failed to create-slots|`to`|`from`/u;
const slots = (...more: string[]): string[] => ['create-slots', '--service', DEMO_IDS.defaultModeServiceId, '--tz', 'Europe/Berlin', ...more];

/** A demo mock server of its own, for a test that counts what arrived (the others run concurrently). */
async function ownServer(): Promise<MockServer & { env: Record<string, string> }> {
  const own = await startMockServer({ seed: 'demo' });
  return Object.assign(own, { env: { ADMIN_API_URL: own.url, ADMIN_API_KEY: DEMO_API_KEY } });
}

describe.concurrent('create-slots messages name the flags, never internal names (exit 2, nothing sent)', () => {
  it.each([
    ['a slot in a spring-forward gap', ['--from', '2027-03-28', '--to', '2027-03-28', '--weekly', 'Sun 02:15-02:45'], '2027-03-28 02:15 does not exist in Europe/Berlin (the clocks skip it at a daylight-saving change). Move that --weekly time out of the gap, or pass --dst-gap skip to leave such slots out.'],
    ['a slot at a time that happens twice', ['--from', '2027-10-31', '--to', '2027-10-31', '--weekly', 'Sun 02:15-02:45'], '2027-10-31 02:15 happens twice in Europe/Berlin (the clocks go back). Pass --dst-repeat earlier or --dst-repeat later to pick one'],
    ['--to before --from', ['--from', '2027-03-28', '--to', '2027-03-20', '--weekly', 'Sun 10:00-11:00'], '--to 2027-03-20 is before --from 2027-03-28. Give a --to date on or after --from.'],
    ['a malformed --from', ['--from', '2027-3-28', '--to', '2027-04-20', '--weekly', 'Sun 10:00-11:00'], '--from 2027-3-28 is not a date. Write it as YYYY-MM-DD'],
  ])('%s', async (_case, args, message) => {
    const run = await runCli(slots(...args), env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`school-admin: Failed to plan the slots: ${message}`);
    expect(run.stderr + run.stdout).not.toMatch(INTERNAL_NAMES);
  });

  it('--hosting custom without --join-url (MEETING-008, refused locally): names both flags, not joinUrl or row 0', async () => {
    const own = await ownServer();
    try {
      const run = await runCli(slots('--from', '2027-05-01', '--to', '2027-05-20', '--weekly', 'Mon 10:00-11:00', '--hosting', 'custom'), own.env);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('school-admin: Failed to create the slots: --hosting custom needs --join-url (MEETING-008). Nothing was sent.\n');
      expect(own.simulator.stats().requests.mutations).toBe(0);
    } finally {
      await own.close();
    }
  });

  it('an unknown --tz', async () => {
    const run = await runCli(slots('--from', '2027-05-01', '--to', '2027-05-20', '--weekly', 'Mon 10:00-11:00').map((arg) => (arg === 'Europe/Berlin' ? 'Europe/Berlinn' : arg)), env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("option '--tz <zone>' argument 'Europe/Berlinn' is invalid. It is not a time zone.");
    expect(run.stderr).not.toMatch(INTERNAL_NAMES);
  });
});

describe.concurrent('create-slots row errors: the flag at fault, and the server\'s hint once', () => {
  it('MEETING-012 on every row: each row names --host-user; the valid host ids are listed once, under the table', async () => {
    const run = await runCli(slots('--from', '2027-06-07', '--to', '2027-06-20', '--weekly', 'Mon,Wed 10:00-11:00', '--host-user', 'not-a-teaching-assistant'), env);
    expect(run.code).toBe(1);
    const rows = run.stdout.split('\n').filter((line) => line.includes('failed MEETING-012'));
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).toMatch(/failed MEETING-012: --host-user is neither the school owner nor a teaching assistant$/u);
    expect(run.stdout.match(/Valid --host-user values \(MEETING-012 hint\): /gu)).toHaveLength(1);
    const hint = run.stdout.split('\n').find((line) => line.startsWith('Valid --host-user values')) ?? '';
    const ids = hint.slice(hint.indexOf(': ') + 2).split(', ');
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(run.stdout.split(id).length - 1).toBe(1);
    expect(run.stdout).not.toMatch(INTERNAL_NAMES);
    expect(run.stdout).not.toContain('valid_options=');
  });

  it('an unknown --service is named as such (CONSULTING-001, exit 1: the server answered)', async () => {
    const run = await runCli(['create-slots', '--service', '00000000-0000-4000-8000-0000000000ff', '--tz', 'UTC', '--from', '2027-02-01', '--to', '2027-02-07', '--weekly', 'Mon 10:00-11:00'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'school-admin: Failed to create the slots: --service 00000000-0000-4000-8000-0000000000ff is not a consulting service of this school (CONSULTING-001). Check the id; ids of another school count as not found.\n',
    );
  });
});

describe.concurrent('ADMIN_API_URL: the base URL; one ending in /admin/graphql is refused with the remedy (exit 2, nothing sent)', () => {
  it.each(['grant-coupon', 'create-slots', 'cancel-meetings'])('%s', async (command) => {
    const args: Record<string, string[]> = {
      'grant-coupon': ['grant-coupon', '--coupon', DEMO_IDS.restrictedCouponId, '--csv', 'package.json'],
      'create-slots': slots('--from', '2027-05-01', '--to', '2027-05-20', '--weekly', 'Mon 10:00-11:00'),
      'cancel-meetings': ['cancel-meetings', '--ids', 'package.json'],
    };
    const own = await ownServer();
    try {
      const run = await runCli(args[command] ?? [], { ...own.env, ADMIN_API_URL: `${own.url}/admin/graphql` });
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`school-admin: Failed to start ${command}: ADMIN_API_URL ends with /admin/graphql, the path school-admin adds itself. Drop the path: export ADMIN_API_URL=${own.url}\n`);
      expect(own.simulator.stats().requests).toEqual({ mutations: 0, queries: 0 });
    } finally {
      await own.close();
    }
  });

  it('mock-server prints the base URL to export, not the endpoint', async () => {
    const { startCli } = await import('./support/cli-process.js');
    const running = startCli(['mock-server', '--port', '0']);
    try {
      for (let tries = 0; tries < 200 && !running.output().stdout.includes('Press Ctrl-C'); tries += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      const banner = running.output().stdout;
      const base = /listening on (http:\/\/127\.0\.0\.1:\d+) \(POST \/admin\/graphql/u.exec(banner)?.[1];
      expect(base, banner).toBeDefined();
      expect(banner).toContain(`export ADMIN_API_URL=${base}\n`);
      expect(banner).not.toContain(`${base}/admin/graphql`);
    } finally {
      running.child.kill('SIGTERM');
      await running.finished;
    }
  });
});
