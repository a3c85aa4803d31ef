import { percentile, safeBoundMs } from '../qos/setup.js';
import type { SelfHostedOutcome } from './run.js';

/** Issue 20's targets against a self-hosted budget. */
export const SELF_HOSTED_TARGETS = Object.freeze({ ratio: 1.25, laterBurst: 2 });

/** The figures of one server's run. */
export interface SelfHostedFigures {
  totalMs: number;
  roundTripMs: number;
  /** The least time for the job's grants under the server's budget (safeBoundMs with the run's median round trip). */
  minimumMs: number;
  ratio: number;
  /** 429s answering requests sent before the client received its first 429 (nothing could know yet). */
  firstBurst: number;
  /** 429s answering requests sent after that. */
  later: number;
  /** The most later 429s within one window of the server's length (counted from the first 429). */
  laterMostInAWindow: number;
  serverRateLimited: number;
  sent: number;
  /** Limits the server stated in its 429s, as the client's `rateLimited` events report them. */
  statedLimits: number[];
  /** The pauses the client took after 429s (`rateLimited.waitMs`): shortest and longest. */
  pauseMs: [number, number] | undefined;
  /**
   * Mutations sent per server window once the first burst is over (from a window after the first
   * 429, or after the start without any 429, to the end): on average, and the most in one window.
   */
  pacePerWindow: { average: number; most: number } | undefined;
  /** `waiting` events by reason. */
  waiting: Record<string, number>;
  done: number;
  failed: number;
  failures: Record<string, number>;
  interrupted: boolean;
  /** `ratio` and `429 burst` when missed; `failed` when a row failed; `capped` when the cap stopped the job. */
  misses: string[];
}

/** The most values of sorted `times` within any span of `spanMs`. */
function mostWithin(times: readonly number[], spanMs: number): number {
  let most = 0;
  let first = 0;
  for (let last = 0; last < times.length; last += 1) {
    while ((times[last] as number) - (times[first] as number) >= spanMs) first += 1;
    most = Math.max(most, last - first + 1);
  }
  return most;
}

/** Computes one server's figures. */
export function selfHostedFigures(outcome: SelfHostedOutcome): SelfHostedFigures {
  const { run, server } = outcome;
  const { windowMs } = server.budget;
  const totalMs = run.finishedAt - run.startedAt;
  const roundTripMs = percentile(run.roundTripMs, 50);
  const minimumMs = safeBoundMs(server.grants, roundTripMs, server.budget);
  const sentAt = new Map(run.sends.map((send) => [send.attempt, send.at]));
  const firstKnownAt = Math.min(...run.rateLimited.map((event) => event.at));
  const laterAt = run.rateLimited.filter((event) => (sentAt.get(event.attempt) ?? event.at) > firstKnownAt).map((event) => event.at);
  const laterMostInAWindow = mostWithin(
    laterAt.sort((a, b) => a - b),
    windowMs,
  );
  const pauses = run.rateLimited.map((event) => event.waitMs);
  const steadyFrom = (run.rateLimited.length > 0 ? firstKnownAt : run.startedAt) + windowMs;
  const steady = run.sends
    .map((send) => send.at)
    .filter((at) => at >= steadyFrom)
    .sort((a, b) => a - b);
  const steadyMs = run.finishedAt - steadyFrom;
  const waiting: Record<string, number> = {};
  for (const event of run.waiting) waiting[event.reason] = (waiting[event.reason] ?? 0) + 1;
  const ratio = totalMs / minimumMs;
  const misses = [
    ...(ratio > SELF_HOSTED_TARGETS.ratio ? ['ratio'] : []),
    ...(laterMostInAWindow >= SELF_HOSTED_TARGETS.laterBurst ? ['429 burst'] : []),
    ...(run.failed > 0 ? ['failed'] : []),
    ...(run.interrupted ? ['capped'] : []),
  ];
  return {
    totalMs,
    roundTripMs,
    minimumMs,
    ratio,
    firstBurst: run.rateLimited.length - laterAt.length,
    later: laterAt.length,
    laterMostInAWindow,
    serverRateLimited: outcome.serverRateLimited,
    sent: run.sends.length,
    statedLimits: [...new Set(run.rateLimited.flatMap((event) => (event.limit === undefined ? [] : [event.limit])))],
    pauseMs: pauses.length === 0 ? undefined : [Math.min(...pauses), Math.max(...pauses)],
    pacePerWindow: steadyMs >= windowMs ? { average: (steady.length * windowMs) / steadyMs, most: mostWithin(steady, windowMs) } : undefined,
    waiting,
    done: run.done,
    failed: run.failed,
    failures: run.failures,
    interrupted: run.interrupted,
    misses,
  };
}

/** Two lines per server; a missed target is marked with `!`. */
export function formatSelfHosted(outcome: SelfHostedOutcome, figures: SelfHostedFigures): string {
  const { budget, grants } = outcome.server;
  const miss = (target: string): string => (figures.misses.includes(target) ? '!' : '');
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const per = `${budget.windowMs / 1000} s`;
  const time = figures.interrupted ? `not done after ${s(figures.totalMs)} (cap)${miss('capped')}` : s(figures.totalMs);
  const ratio = `${figures.interrupted ? '> ' : ''}${figures.ratio.toFixed(2)}${miss('ratio')}`;
  const pace = figures.pacePerWindow === undefined ? '-' : `${figures.pacePerWindow.average.toFixed(1)} per ${per} on average, at most ${figures.pacePerWindow.most}`;
  const waiting = Object.entries(figures.waiting)
    .map(([reason, count]) => `${reason} ${count}`)
    .join(', ');
  return [
    `${budget.limit} per ${per}: ${grants} grants, ${figures.done} done, ${figures.failed} failed${miss('failed')}${figures.failed > 0 ? ` (${JSON.stringify(figures.failures)})` : ''}; ` +
      `time ${time}, minimum ${s(figures.minimumMs)} (rtt ${figures.roundTripMs.toFixed(0)} ms), ratio ${ratio}`,
    `    429s: first burst ${figures.firstBurst}, later ${figures.later} (at most ${figures.laterMostInAWindow} in a window)${miss('429 burst')}, server sent ${figures.serverRateLimited}; ` +
      `${figures.sent} requests sent`,
    `    learnt, as the events show: stated limit ${figures.statedLimits.join(', ') || '-'}; pauses after 429s ${figures.pauseMs === undefined ? '-' : `${s(figures.pauseMs[0])}-${s(figures.pauseMs[1])}`}; ` +
      `pace after the first burst ${pace} (server: ${budget.limit}); waiting events: ${waiting || 'none'}`,
  ].join('\n');
}

/** The legend printed under the table. */
export const SELF_HOSTED_LEGEND = [
  'minimum: the least time for the grants under the server budget, a request counting until a window after its answer:',
  `         (ceil(grants / limit) - 1) x (window + rtt) + rtt, rtt = the run's median round trip. ratio = time / minimum (target <= ${SELF_HOSTED_TARGETS.ratio}).`,
  '429s: first burst = answers to requests sent before the client received its first 429 (nothing could know the budget yet);',
  `      later = the rest (target: no further burst, i.e. never ${SELF_HOSTED_TARGETS.laterBurst} or more within one window of the server's length).`,
  'learnt: what the public events show: the limit stated in the 429s the client saw (rateLimited.limit), the pauses it took after them',
  "        (rateLimited.waitMs), how many requests it sent per server window once the first burst was over, and why calls waited (waiting.reason).",
];
