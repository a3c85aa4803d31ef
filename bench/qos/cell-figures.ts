import type { CellOutcome } from './run-cell.js';
import type { CellPlan } from './cell.js';
import { defaultPromiseMs } from './promise.js';
import { percentile, safeBoundAfterMs } from './setup.js';

/**
 * Issue 20's targets for every cell. `ratio` is the bulk time against the promise of the cell's
 * mode (bench/qos/promise.ts): the safe bound itself in batch mode, the default mode's formula
 * (the bound on the slots it keeps, plus its ramp) otherwise.
 */
export const TARGETS = Object.freeze({ p50: 1.5, p95: 3, ratio: 1.03, rateLimited: 0 });

/** The figures of one cell, and which targets it misses. */
export interface CellFigures {
  /** Median round trip of the mutations sent in the run (every process). */
  roundTripMs: number;
  /** Interactive calls made while the bulk job ran, and their latencies (NaN without any). */
  interactiveCount: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  bulkMs: number;
  /** Mutations sent (every process) until the bulk job ended. */
  sent: number;
  /** Mutations sent in the first window of the bulk job, and when the budget's last one went (ms after the job's start). */
  firstWindowSent: number;
  budgetReachedMs: number;
  /** The least time for them under the permit rule (safeBoundMs; with what the window before the job still counted, safeBoundAfterMs). */
  boundMs: number;
  /**
   * Bulk time against the bound whose slots start when the job's first window actually used them
   * (its first `limit` sends): the pacing from the second window on, without the time the machine
   * took to hand the first window out (on 2 cores, 1,000 sends through client and simulator take
   * seconds at any concurrency).
   */
  afterFirstWindowRatio?: number;
  ratio: number;
  /** What the cell's mode promises (bench/qos/promise.ts): the bound in batch mode, the default mode's formula otherwise. */
  promiseMs: number;
  /** The ratio target: 1.03 x promise / bound (1.03 in batch mode). */
  ratioTarget: number;
  ownRateLimited: number;
  serverRateLimited: number;
  failed: number;
  /** `waiting` events by reason, every process. */
  waiting: Record<string, number>;
  /** The targets missed: `p50`, `p95`, `ratio`, `429s`, `failed`. */
  misses: string[];
  /**
   * How far the cell is from its targets: the largest of p50/1.5x, p95/3x and ratio/1.03, and
   * 1 + n / limit for n 429s or n failures (a full window of them counts as twice the target).
   * Above 1 means a target is missed.
   */
  score: number;
}

/** Computes a cell's figures from its processes' runs. */
export function cellFigures(outcome: CellOutcome): CellFigures {
  const { runs, plan } = outcome;
  const started = Math.min(...runs.flatMap((run) => (run.bulkStartedAt === undefined ? [] : [run.bulkStartedAt])));
  const finished = Math.max(...runs.flatMap((run) => (run.bulkFinishedAt === undefined ? [] : [run.bulkFinishedAt])));
  // Interactive calls made after the bulk job ended measure an idle key, and those before it (a
  // batch cell's other traffic) no job: left out.
  const calls = runs.flatMap((run) => run.interactive).filter((call) => call.at >= started && call.at <= finished);
  const latencies = calls.filter((call) => call.ok).map((call) => call.ms);
  const roundTripMs = percentile(
    runs.flatMap((run) => run.roundTripMs),
    50,
  );
  const allSent = runs.flatMap((run) => run.sentAt).sort((a, b) => a - b);
  const sentAt = allSent.filter((at) => at >= started && at <= finished);
  const sent = sentAt.length;
  const bulkMs = finished - started;
  // Requests of the window before the job still count when it starts: each until a window after its answer.
  const busyUntil = allSent.filter((at) => at < started).map((at) => at + roundTripMs + plan.budget.windowMs - started);
  const boundMs = safeBoundAfterMs(sent, roundTripMs, plan.budget, busyUntil);
  const promiseMs = plan.interactiveReserve === 0 ? boundMs : defaultPromiseMs(sent, roundTripMs, plan.budget, plan.interactive?.burst ?? 0, plan.interactiveReserve);
  const ratioTarget = (TARGETS.ratio * promiseMs) / boundMs;
  const failed = runs.reduce((sum, run) => sum + run.bulkFailed, 0) + calls.filter((call) => !call.ok).length;
  const ownRateLimited = runs.reduce((sum, run) => sum + run.rateLimited, 0);
  const waiting: Record<string, number> = {};
  for (const run of runs) for (const [reason, count] of Object.entries(run.waiting)) waiting[reason] = (waiting[reason] ?? 0) + count;
  const figures = {
    roundTripMs,
    interactiveCount: latencies.length,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    maxMs: percentile(latencies, 100),
    bulkMs,
    sent,
    firstWindowSent: sentAt.filter((at) => at < started + plan.budget.windowMs).length,
    budgetReachedMs: (sentAt[plan.budget.limit - 1] ?? Number.NaN) - started,
    boundMs,
    ratio: bulkMs / boundMs,
    afterFirstWindowRatio: bulkMs / safeBoundAfterMs(sent, roundTripMs, plan.budget, sentAt.slice(0, plan.budget.limit).map((at) => at - started)),
    promiseMs,
    ratioTarget,
    ownRateLimited,
    serverRateLimited: outcome.serverRateLimited,
    failed,
    waiting,
  };
  // Batch mode promises interactive calls no kept slot, only their turn: each waits at most until
  // the next slot frees (a window), plus its own round trip; p50 and p95 are not its promise.
  const batch = plan.interactiveReserve === 0;
  const excess: Record<string, number> = {
    p50: batch || Number.isNaN(figures.p50Ms) ? 0 : figures.p50Ms / roundTripMs / TARGETS.p50,
    p95: batch || Number.isNaN(figures.p95Ms) ? 0 : figures.p95Ms / roundTripMs / TARGETS.p95,
    wait: !batch || Number.isNaN(figures.maxMs) ? 0 : figures.maxMs / (plan.budget.windowMs + TARGETS.p95 * roundTripMs),
    ratio: figures.ratio / ratioTarget,
    '429s': Math.max(ownRateLimited, outcome.serverRateLimited) > TARGETS.rateLimited ? 1 + Math.max(ownRateLimited, outcome.serverRateLimited) / plan.budget.limit : 0,
    failed: failed > 0 ? 1 + failed / plan.budget.limit : 0,
  };
  const misses = Object.entries(excess)
    .filter(([, value]) => value > 1)
    .map(([target]) => target);
  return { ...figures, misses, score: Math.max(...Object.values(excess)) };
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
const pct = (share: number): string => `${Math.round(share * 100)}%`;

/** The cell's coordinates: budget/window, load, start, shape, topology (or the scenario's name). */
export function cellLabel(plan: CellPlan): string {
  const budget = `${plan.budget.limit}/${plan.budget.windowMs / 1000}s`.padEnd(8);
  const topology = plan.topology.padEnd(13);
  if (plan.batch !== undefined) return `${budget} batch  start ${plan.batch.start.padEnd(22)} ${topology}`;
  if (plan.factors === undefined) return `${budget} ${plan.name.padEnd(29)} ${topology}`;
  const { load, start, shape } = plan.factors;
  return `${budget} load ${pct(load).padEnd(3)}  start ${start.padEnd(5)}  ${shape.padEnd(6)}  ${topology}`;
}

/** One line per cell; a missed target is marked with `!`. */
export function formatCell(plan: CellPlan, figures: CellFigures): string {
  const miss = (target: string): string => (figures.misses.includes(target) ? '!' : ' ');
  const rtt = figures.roundTripMs;
  const latency = (label: string, ms: number, target: string): string =>
    Number.isNaN(ms) ? `${label} -`.padEnd(20) : `${label} ${ms.toFixed(0)} ms (${(ms / rtt).toFixed(1)}x)${miss(target)}`.padStart(20);
  return [
    cellLabel(plan),
    `rtt ${rtt.toFixed(0)} ms`.padStart(10),
    `n ${figures.interactiveCount}`.padStart(6),
    latency('p50', figures.p50Ms, 'p50'),
    latency('p95', figures.p95Ms, 'p95'),
    (Number.isNaN(figures.maxMs) ? 'max -' : `max ${figures.maxMs.toFixed(0)} ms${miss('wait')}`).padStart(13),
    `bulk ${seconds(figures.bulkMs)}`.padStart(12),
    `bound ${seconds(figures.boundMs)} (${figures.sent})`.padStart(21),
    `ratio ${figures.ratio.toFixed(3)} (<= ${(figures.ratioTarget ?? TARGETS.ratio).toFixed(3)})${miss('ratio')}`.padStart(22),
    `after 1st window ${figures.afterFirstWindowRatio?.toFixed(3) ?? '-'}`.padStart(22),
    `429s ${figures.ownRateLimited}/${figures.serverRateLimited}${miss('429s')}`.padStart(12),
    `failed ${figures.failed}${miss('failed')}`.padStart(10),
    `score ${figures.score.toFixed(2)}`.padStart(11),
  ].join(' ');
}

/** The legend printed under the tables. */
export const LEGEND = [
  'rtt: median round trip of the mutations sent in the cell (every process). n: interactive calls answered that were made while the bulk job ran.',
  `p50/p95/max: their latency from call to answer, and p50/p95 as multiples of rtt (targets <= ${TARGETS.p50}x and <= ${TARGETS.p95}x).`,
  'bound: the least time for all mutations sent until the bulk job ended (the count in brackets), a request counting until a window',
  `       after its answer: (ceil(sent / limit) - 1) x (window + rtt) + rtt (a batch job after other traffic: its slots free as that traffic's counts end).`,
  'after 1st window: bulk time against the bound whose slots start when the job first used them (its first limit sends): the pacing',
  '       from the second window on, the time the machine took to hand the first window out taken as given (informative, not judged).',
  `ratio = bulk time / bound. Its target (in brackets) is the promise of the cell's mode: ${TARGETS.ratio} x the bound in batch mode; in the default mode ${TARGETS.ratio} x P(sent) / bound,`,
  '       P the bound on the slots it keeps free plus its first window\'s ramp (bench/qos/promise.ts; README, "Pacing in short").',
  `In batch mode (limits.interactiveReserve 0) interactive calls are promised their turn, not a kept slot: max <= window + ${TARGETS.p95} x rtt (marked on max), instead of p50 and p95.`,
  '429s: received by the clients / sent by the server (target 0). failed: bulk rows and interactive calls that failed (target 0).',
  'score: the largest of p50/1.5x, p95/3x, ratio/its target, and 1 + count/limit for 429s or failures; above 1 a target is missed (marked !).',
];
