import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanJournal } from '../../src/workflows/journal/scan-journal.js';
import type { GrantOutcomeCounts } from '../../src/workflows/grant-to-many.js';
import type { JournalRecovery } from '../../src/workflows/journal/scan-journal.js';
import { startGrantServer, type GrantServer } from '../cli/support/grant-server.js';

const MEMBERS = 600;
const CONCURRENCY = 8;
const LIMIT_PER_SECOND = 200;
/** Set KILL_SEED to replay a run; the seed is in the test's name. */
const SEED = Number(process.env['KILL_SEED'] ?? Date.now() % 1_000_000);
const JOB = fileURLToPath(new URL('./fixtures/grant-job.ts', import.meta.url));

/** Where to kill one run: once the journal has grown by `ahead` lines, or `afterMs` after the start (maybe before any grant). Five kills of at most 100 lines each cannot finish the 600 members. */
type KillPoint = { kind: 'lines'; ahead: number } | { kind: 'time'; afterMs: number };
const killPoint: fc.Arbitrary<KillPoint> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('lines' as const), ahead: fc.integer({ min: 0, max: 100 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('time' as const), afterMs: fc.integer({ min: 0, max: 900 }) }) },
);
const [PLAN = []] = fc.sample(fc.array(killPoint, { minLength: 5, maxLength: 5 }), { seed: SEED, numRuns: 1 });

interface JobSummary {
  rows: number;
  counts: GrantOutcomeCounts;
  allSucceeded: boolean;
  journalRecovery: JournalRecovery | null;
}

let dir: string;
let target: GrantServer;
let journal: string;
let membersFile: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kill-resume-'));
  journal = join(dir, 'grants.journal');
  membersFile = join(dir, 'members.txt');
  // The server lives in this process: its state survives every killed job.
  target = await startGrantServer(MEMBERS, { limit: LIMIT_PER_SECOND, windowMs: 1_000 });
  await writeFile(membersFile, `${target.emails.join('\n')}\n`);
});
afterAll(async () => {
  await target.server.close();
  await rm(dir, { recursive: true, force: true });
});

function journalLines(): number {
  try {
    if (statSync(journal).size === 0) return 0;
  } catch {
    return 0;
  }
  return readFileSync(journal, 'utf8').split('\n').length - 1;
}

function startJob() {
  const env = {
    PATH: process.env['PATH'] ?? '',
    GRANT_URL: target.server.url,
    GRANT_KEY: target.apiKey,
    GRANT_COUPON: target.couponId,
    GRANT_MEMBERS: membersFile,
    GRANT_JOURNAL: journal,
    GRANT_CONCURRENCY: String(CONCURRENCY),
    GRANT_LIMIT: String(LIMIT_PER_SECOND),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', JOB], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const finished = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, finished };
}

/** Runs one job and SIGKILLs it at `point`; 'finished' when it completed first. */
async function runUntilKilled(point: KillPoint): Promise<'killed' | 'finished'> {
  const job = startJob();
  const startLines = journalLines();
  const kill = (): boolean => job.child.kill('SIGKILL');
  const timer =
    point.kind === 'time'
      ? setTimeout(kill, point.afterMs)
      : setInterval(() => {
          if (journalLines() >= startLines + point.ahead) kill();
        }, 5);
  const run = await job.finished;
  clearTimeout(timer);
  clearInterval(timer);
  if (run.signal === 'SIGKILL') return 'killed';
  if (run.code !== 0) throw new Error(`the job failed before it was killed (code ${run.code}): ${run.stderr}`);
  return 'finished';
}

describe('a bulk grant job SIGKILLed at random points, again and again, then resumed with the same journal', () => {
  it(`every member ends with exactly one grant and one final journal outcome; a torn last line is dropped (seed ${SEED}, plan ${JSON.stringify(PLAN)})`, { timeout: 120_000 }, async () => {
    let kills = 0;
    for (const point of PLAN) {
      if ((await runUntilKilled(point)) === 'finished') break;
      kills += 1;
    }
    expect(kills).toBeGreaterThanOrEqual(3);
    const grantedBeforeResume = target.grantsPerEmail().size;
    expect(grantedBeforeResume).toBeLessThan(MEMBERS);

    // A torn write: the last append cut short by a crash (whether or not a kill already tore one).
    await appendFile(journal, '{"type":"outcome","member":"member-00001@cli.example","outc');
    const last = await startJob().finished;
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr).not.toContain(target.apiKey);
    const summary = JSON.parse(last.stdout.trim()) as JobSummary;
    expect(summary.journalRecovery).toMatchObject({ reason: 'torn_write' });
    expect(summary).toMatchObject({ rows: MEMBERS, allSucceeded: true, counts: { failed: 0, invalid: 0 } });
    expect(summary.counts.created + summary.counts.already_granted + summary.counts.skipped).toBe(MEMBERS);
    expect(summary.counts.created).toBe(MEMBERS - grantedBeforeResume);

    // The server: each member holds exactly one grant, and no grant record was ever duplicated.
    const grants = target.grantsPerEmail();
    expect(target.emails.filter((email) => grants.get(email) !== 1)).toEqual([]);
    const records = [...target.simulator.school().tables.grants.values()].filter((grant) => grant.couponId === target.couponId);
    expect(records).toHaveLength(MEMBERS);
    // Re-sent grants are bounded: at most the grants in flight at each kill, never a whole run again.
    const executions = target.simulator.stats().fields['createCouponGrant']?.executions ?? 0;
    expect(executions).toBeLessThanOrEqual(MEMBERS + kills * CONCURRENCY);

    // The journal: whole lines only, one final outcome per member, `created` at most once per member.
    const scanned = scanJournal(await readFile(journal), journal);
    expect(scanned.recovery).toBeNull();
    const created = new Map<string, number>();
    const finals = new Set<string>();
    for (const entry of scanned.entries) {
      if (entry.outcome === 'created') created.set(entry.member, (created.get(entry.member) ?? 0) + 1);
      if (entry.outcome === 'created' || entry.outcome === 'already_granted') finals.add(entry.member);
    }
    expect([...created.values()].every((count) => count === 1)).toBe(true);
    expect(finals).toEqual(new Set(target.emails));
    expect(scanned.entries.every((entry) => entry.outcome !== 'failed' && entry.outcome !== 'invalid')).toBe(true);
  });
});
