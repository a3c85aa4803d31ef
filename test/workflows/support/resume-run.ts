import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AdminClient, type GrantToManySummary, type PermitStore } from '../../../src/index.js';
import { decodeRecordLine } from '../../../src/workflows/journal/record-line.js';
import { journalOutcomes, type GrantServer } from '../../support/grant-school-server.js';
import { lastArrivalBound } from './budget-bound.js';

/*
 * The SIGKILL-and-resume scenario of issue 30, point 1, shared by the memory-store and CLI runs
 * (test/workflows/resume-budget.test.ts) and the Redis one (test/redis/resume-budget.test.ts):
 * 300 grants, the first run killed once its journal holds 150 members, the rest resumed at once.
 * The budget is the documented 200 per window with a 20 s window, so that a run takes seconds.
 *
 * Two bounds for the resumed run's last arrival, both counting the first run's requests:
 * - the server's (`physical`): each counts from its arrival, as the server's sliding window does;
 * - the permit rule's (`rule`): each counts until a window after its answer, as the client counts
 *   its own requests (it cannot know when one arrived), with the answer times the first run
 *   recorded; one still unanswered at the kill from its arrival, or (`inFlightLeaseMs`, the Redis
 *   store's rule for a dead process's permits) until its lease's end. The gap between the two
 *   bounds is the first run's answer latency, which a loaded machine stretches to seconds; the
 *   test holds the resumed run to the rule's bound (what a run that was never killed would do),
 *   and `npm run bench:resume` prints both.
 */

export const MEMBERS = 300;
export const KILL_AFTER = 150;
export const BUDGET = { limit: 200, windowMs: 20_000 };
/** BUDGET as `--rate-limit` takes it. */
export const RATE_LIMIT = '200/20s';
/** The target: the resumed run's last request arrives within this many times the bound. */
export const BOUND_RATIO = 1.1;
/**
 * Grants in flight in the resumed run: the budget's limit, so that its pace is the budget's, not
 * that of 64 workers each waiting for its answer (the default; on a loaded machine, answers that
 * take 300-500 ms then space the last grants out after the slots free: bench/README.md, "Bulk
 * concurrency"). The killed run keeps the default.
 */
export const RESUMED_CONCURRENCY = BUDGET.limit;

const JOB = fileURLToPath(new URL('../../reliability/fixtures/grant-job.ts', import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A process to kill. */
export interface Killable {
  kill(): void;
  exited: Promise<unknown>;
}

/** What the killed run left: when it had exited, and the answer times its journal records (epoch ms). */
export interface KilledRun {
  killedAt: number;
  answeredAt: number[];
}

/** Starts `start()` and SIGKILLs it once `journal` holds KILL_AFTER members. */
export async function killedPartWay(journal: string, start: () => Killable): Promise<KilledRun> {
  const child = start();
  let finished = false;
  void child.exited.then(() => (finished = true));
  while (journalOutcomes(journal) < KILL_AFTER) {
    if (finished) throw new Error('the first run ended before it was killed');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  child.kill();
  await child.exited;
  const answeredAt = readFileSync(journal, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const decoded = decodeRecordLine(line);
      return decoded.ok && decoded.record.type === 'answered' ? [decoded.record.atMs] : [];
    });
  return { killedAt: Date.now(), answeredAt };
}

/** The first run as an SDK job in a child process (test/reliability/fixtures/grant-job.ts), with the memory store or a Redis store. */
export function sdkJob(target: GrantServer, journal: string, membersFile: string, redis?: { url: string; prefix: string }): () => Killable {
  const env = {
    ...process.env,
    GRANT_URL: target.server.url,
    GRANT_KEY: target.apiKey,
    GRANT_COUPON: target.couponId,
    GRANT_MEMBERS: membersFile,
    GRANT_JOURNAL: journal,
    GRANT_LIMIT: String(BUDGET.limit),
    GRANT_WINDOW_MS: String(BUDGET.windowMs),
    GRANT_REDIS_URL: redis?.url ?? '',
    GRANT_REDIS_PREFIX: redis?.prefix ?? '',
  };
  return () => {
    const child = spawn(process.execPath, ['--import', 'tsx', JOB], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
    return { kill: () => child.kill('SIGKILL'), exited: new Promise((resolve) => child.once('exit', resolve)) };
  };
}

/** A resumed SDK run in this process (another one than the killed job's) with `store`; `from` is when it started. */
export async function resumeInProcess(target: GrantServer, journal: string, store: PermitStore, concurrency: number | undefined = RESUMED_CONCURRENCY): Promise<{ from: number; summary: GrantToManySummary }> {
  const admin = new AdminClient({ apiKey: target.apiKey, baseUrl: target.server.url, retryBaseDelayMs: 5, limits: { mutations: BUDGET, store } });
  const from = Date.now();
  const summary = await admin.grantCouponToMany(target.couponId, target.emails.map((email) => ({ email })), { journal, concurrency });
  return { from, summary };
}

/** What the resumed run did, read from the server's log. */
export interface ResumedFigures {
  /** Requests of the first run, and of the resumed run. */
  firstRequests: number;
  resumedRequests: number;
  /** 429s the server answered to the resumed run. */
  rateLimited: number;
  /** Members holding other than exactly one grant. */
  notOnce: string[];
  /** From the resumed run's start to its last request's arrival, in ms. */
  lastArrivalMs: number;
  /** The same for the bound under the server's window, counting the first run's requests from their arrivals. */
  physicalBoundMs: number;
  /** The same for the bound under the permit rule, counting them until a window after their recorded answers. */
  ruleBoundMs: number;
}

/**
 * Reads the server's log: requests that arrived from `from` on are the resumed run's, the others
 * the killed run's (`killed`: what its journal recorded). RESUME_FIGURES=1 prints the figures.
 */
export function resumedFigures(target: GrantServer, from: number, killed: KilledRun, label: string, inFlightLeaseMs = 0): ResumedFigures {
  const mutations = target.simulator.requestLog().filter((entry) => entry.operationType === 'mutations');
  const first = mutations.filter((entry) => entry.arrivedAt < from).map((entry) => entry.arrivedAt);
  const resumed = mutations.filter((entry) => entry.arrivedAt >= from);
  // The requests the killed run got no answer to arrived last: they count from their arrival.
  const unanswered = first.sort((a, b) => a - b).slice(Math.min(first.length, killed.answeredAt.length));
  const physical = lastArrivalBound(first, resumed.length, from, BUDGET);
  const rule = lastArrivalBound([...killed.answeredAt, ...unanswered.map((arrival) => arrival + inFlightLeaseMs)], resumed.length, from, BUDGET);
  const grants = target.grantsPerEmail();
  const figures: ResumedFigures = {
    firstRequests: first.length,
    resumedRequests: resumed.length,
    rateLimited: resumed.filter((entry) => entry.status === 429).length,
    notOnce: target.emails.filter((email) => grants.get(email) !== 1),
    lastArrivalMs: Math.max(...resumed.map((entry) => entry.arrivedAt)) - from,
    physicalBoundMs: physical - from,
    ruleBoundMs: rule - from,
  };
  if (process.env['RESUME_FIGURES'] !== undefined) console.log(`${label}: ${figuresLine(figures)}`);
  return figures;
}

/** The figures of one resumed run on one line. */
export function figuresLine(figures: ResumedFigures): string {
  const ratio = (bound: number): string => (figures.lastArrivalMs / bound).toFixed(3);
  return (
    `first run ${figures.firstRequests} requests, resumed ${figures.resumedRequests} (${figures.rateLimited} x 429, ${figures.notOnce.length} members not granted exactly once); ` +
    `last arrival after ${figures.lastArrivalMs} ms; bound ${figures.ruleBoundMs} ms by the permit rule (ratio ${ratio(figures.ruleBoundMs)}), ${figures.physicalBoundMs} ms by the server's window (ratio ${ratio(figures.physicalBoundMs)})`
  );
}

/**
 * Issue 30's promise for a resumed run: no 429, nobody granted twice, the first run's requests
 * still counted (the resumed run waits for most of a window), and the last request within
 * BOUND_RATIO x the bound that counts them.
 */
export function expectResumedWithinBudget(seen: ResumedFigures): void {
  expect(seen.rateLimited).toBe(0);
  expect(seen.notOnce).toEqual([]);
  expect(seen.ruleBoundMs).toBeGreaterThan(BUDGET.windowMs / 2);
  expect(seen.lastArrivalMs, figuresLine(seen)).toBeLessThanOrEqual(BOUND_RATIO * seen.ruleBoundMs);
}
