import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, DEMO_API_KEY, seedDemoSchool, startMockServer, type DemoSchool, type MockServer } from '../../src/testing/index.js';
import { runCli } from './support/cli-process.js';
import { reportRows } from './support/grant-server.js';

let dir: string;
let server: MockServer;
let demo: DemoSchool;
let env: Record<string, string>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cli-cancel-'));
  const simulator = createSimulator();
  demo = seedDemoSchool(simulator);
  server = await startMockServer({ simulator });
  env = { ADMIN_API_URL: server.url, ADMIN_API_KEY: DEMO_API_KEY };
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('school-admin cancel-meetings', () => {
  it('cancels the listed meetings; an unknown id fails (exit 1); the report has one line per id', async () => {
    const [first, second] = demo.meetings.open;
    const ids = join(dir, 'ids.txt');
    const report = join(dir, 'report.csv');
    await writeFile(ids, ['# slots of the old term', first?.id, '', second?.id, demo.meetings.canceled.id, '00000000-0000-4000-8000-0000000000ee'].join('\n'));
    const run = await runCli(['cancel-meetings', '--ids', ids, '--report', report], env);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('2 canceled, 1 already canceled, 1 failed');
    const rows = reportRows(await readFile(report, 'utf8'));
    expect(rows.map((row) => [row['line'], row['outcome'], row['errorCode']])).toEqual([
      ['2', 'canceled', ''],
      ['4', 'canceled', ''],
      ['5', 'already_canceled', 'MEETING-007'],
      ['6', 'failed', 'MEETING-001'],
    ]);
  });

  it('running the same list again is safe: already canceled meetings count as done (exit 0); a CSV with an id column works', async () => {
    const [first, second] = demo.meetings.open;
    const csv = join(dir, 'ids.csv');
    await writeFile(csv, `meetingId,note\n${first?.id},old\n${second?.id},old\n`);
    const run = await runCli(['cancel-meetings', '--ids', csv], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('0 canceled, 2 already canceled, 0 failed');
  });

  it('a file without ids is a usage error (exit 2)', async () => {
    const empty = join(dir, 'empty.txt');
    await writeFile(empty, '# nothing\n\n');
    const run = await runCli(['cancel-meetings', '--ids', empty], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('it lists no meeting id');
  });
});
