import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, DEMO_IDS, startMockServer, type MockServer } from '../../src/testing/index.js';
import { runCli } from './support/cli-process.js';

let server: MockServer;
let env: Record<string, string>;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-slots-'));
  server = await startMockServer({ seed: 'demo' });
  env = { ADMIN_API_URL: server.url, ADMIN_API_KEY: DEMO_API_KEY };
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const service = DEMO_IDS.defaultModeServiceId;

describe.concurrent('school-admin create-slots --dry-run (nothing sent, no key needed)', () => {
  it('prints each slot in local time and UTC, keeping the wall time across a DST change', async () => {
    const run = await runCli(['create-slots', '--tz', 'America/New_York', '--from', '2027-03-08', '--to', '2027-03-19', '--weekly', 'Mon 10:00-11:00', '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Dry run: 2 slots in America/New_York');
    // 10:00 local before and after the switch to daylight time on 2027-03-14.
    expect(run.stdout).toMatch(/Mon 2027-03-08 10:00-11:00 \(-05:00\) +2027-03-08 15:00 - 16:00 UTC/u);
    expect(run.stdout).toMatch(/Mon 2027-03-15 10:00-11:00 \(-04:00\) +2027-03-15 14:00 - 15:00 UTC/u);
  });

  it('a slot in a spring-forward gap is refused (exit 2) unless --dst-gap skip, which lists it', async () => {
    const args = ['create-slots', '--tz', 'Europe/Berlin', '--from', '2027-03-21', '--to', '2027-03-28', '--weekly', 'Sun 02:15-02:45', '--dry-run'];
    const refused = await runCli(args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^school-admin: Failed to plan the slots: 2027-03-28 02:15 does not exist in Europe\/Berlin .*pass --dst-gap skip to leave such slots out\.$/mu);
    const skipped = await runCli([...args, '--dst-gap', 'skip']);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stdout).toContain('Dry run: 1 slots');
    expect(skipped.stdout).toContain('2027-03-28 02:15-02:45');
  });

  it('a malformed --weekly pattern or an unknown --tz is a usage error', async () => {
    const pattern = await runCli(['create-slots', '--tz', 'UTC', '--from', '2027-01-04', '--to', '2027-01-10', '--weekly', 'Tue 25:00-26:00', '--dry-run']);
    expect(pattern.code).toBe(2);
    expect(pattern.stderr).toContain("option '--weekly <pattern>' argument");
    const zone = await runCli(['create-slots', '--tz', 'Mars/Olympus', '--from', '2027-01-04', '--to', '2027-01-10', '--weekly', 'Tue 10:00-11:00', '--dry-run']);
    expect(zone.code).toBe(2);
  });
});

describe.concurrent('school-admin create-slots against the mock server', () => {
  it('creates the slots, prints a table of them in local time (exit 0) and saves their ids for cancel-meetings', async () => {
    const saved = join(dir, 'slots.txt');
    const run = await runCli(
      ['create-slots', '--service', service, '--tz', 'Europe/Berlin', '--from', '2027-01-04', '--to', '2027-01-15', '--weekly', 'Tue,Thu 10:00-11:00', '--capacity', '3', '--hosting', 'live_session', '--title', 'Exam prep', '--save-ids', saved],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    const created = [...run.stdout.matchAll(/created ([0-9a-f-]{36})/gu)].map((match) => match[1]);
    expect(created).toHaveLength(4);
    expect(run.stdout).toContain('Tue 2027-01-05 10:00-11:00 (+01:00)');
    expect(run.stdout).toContain('4 created, 0 failed');
    expect((await readFile(saved, 'utf8')).trim().split('\n')).toEqual(created);
    const canceled = await runCli(['cancel-meetings', '--ids', saved], env);
    expect(canceled.code, canceled.stderr).toBe(0);
    expect(canceled.stdout).toContain('4 canceled, 0 already canceled, 0 failed');
  });

  it('custom hosting without --join-url is refused locally (MEETING-008, exit 2)', async () => {
    const run = await runCli(['create-slots', '--service', service, '--tz', 'UTC', '--from', '2027-02-01', '--to', '2027-02-07', '--weekly', 'Mon 10:00-11:00', '--hosting', 'custom'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('MEETING-008');
  });

  it('an unknown service is reported with its code (CONSULTING-001, exit 1)', async () => {
    const run = await runCli(['create-slots', '--service', '00000000-0000-4000-8000-0000000000ff', '--tz', 'UTC', '--from', '2027-02-01', '--to', '2027-02-07', '--weekly', 'Mon 10:00-11:00'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('CONSULTING-001');
  });

  it('--service is required to send', async () => {
    const run = await runCli(['create-slots', '--tz', 'UTC', '--from', '2027-02-01', '--to', '2027-02-07', '--weekly', 'Mon 10:00-11:00'], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--service is required');
  });
});
