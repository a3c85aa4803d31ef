import type { CellResult } from './cell.js';
import type { LegGoals } from './legs/leg.js';
import { startLabel } from './starts.js';

/** One figure of a cell held to a goal: its value, the goal, and how far from it (above 1: missed). */
export interface Verdict {
  figure: string;
  value: number;
  goal: number;
  /** value / goal for "at most" goals, goal / value for "at least" ones: above 1 is a miss. */
  score: number;
  text: string;
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(2)} KB`;
const bytes = (value: number): string => `${value.toFixed(0)} B`;
const rate = (value: number): string => `${(value / 1000).toFixed(1)} k/s`;

/** The cell's name in tables: build, leg, keys x budget per window, load. */
export function cellName(result: CellResult): string {
  const { spec } = result;
  return `${spec.sdkLabel} ${spec.leg} ${spec.keys.toLocaleString('en')} keys x ${spec.budget}/${(spec.windowMs / 1000).toFixed(spec.windowMs % 1000 === 0 ? 0 : 1)} s ${spec.load}${startLabel(spec.start)}`;
}

/** The offered load of a paced cell: every key's budget per window, all keys together. */
export function offeredRate(result: CellResult): number {
  return (result.spec.keys * result.spec.budget * 1000) / result.spec.windowMs;
}

/**
 * The fewest calls a burst round must make for its heap and calls-per-second figures to be held to
 * a goal: with 200 calls (10 keys x 20) a round lasts about 0.1 s and the heap grows by tens of KB,
 * below what GC timing and a shared machine let one reading resolve (a heap per idle client of
 * -31 KB and bare fetch at 19.3 then 0.8 k/s, both seen in one such cell). Those cells still print
 * every figure.
 */
export const MIN_CALLS_FOR_GOALS = 10_000;
/**
 * The fewest keys a burst cell must have for its heap figures to be held to a goal: a reading
 * varies by about 0.5 MB on the shared machine (100 idle clients once read at -0.54 KB each, and
 * 100 keys x 200 counted at 18 B per request, where 1,000 keys read 40-50 B), more than 100
 * clients (0.14 MB) or their 20,000 counts (0.9 MB) weigh.
 */
export const MIN_KEYS_FOR_HEAP_GOALS = 1_000;

/** Every figure of the cell held to a goal of its leg. */
export function verdicts(result: CellResult, goals: LegGoals): Verdict[] {
  const out: Verdict[] = [];
  const atMost = (figure: string, value: number, goal: number | undefined, format: (v: number) => string): void => {
    if (goal !== undefined && Number.isFinite(value)) out.push({ figure, value, goal, score: value / goal, text: `${format(value)} (goal <= ${format(goal)})` });
  };
  const atLeast = (figure: string, value: number, goal: number | undefined, format: (v: number) => string): void => {
    if (goal !== undefined && Number.isFinite(value)) out.push({ figure, value, goal, score: value > 0 ? goal / value : Number.POSITIVE_INFINITY, text: `${format(value)} (goal >= ${format(goal)})` });
  };
  const { heap, jobs } = result;
  const resolved = result.spec.keys * result.spec.jobPerKey >= MIN_CALLS_FOR_GOALS;
  if (heap !== undefined && resolved && result.spec.keys >= MIN_KEYS_FOR_HEAP_GOALS) {
    atMost('heap per counted request', heap.perCounted, goals.heapPerCounted, bytes);
    atMost('heap per idle client (fresh)', heap.freshIdlePerClient, goals.heapPerIdleClient, bytes);
    atMost('heap per idle client (after use)', heap.usedIdlePerClient, goals.heapPerIdleClient, bytes);
  }
  const alternating = alternatingRatios(result);
  if (alternating.length > 0 && resolved) {
    const sorted = [...alternating].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    atLeast(`calls/s against bare fetch (median of ${sorted.length} alternating rounds; worst ${(sorted[0] as number).toFixed(2)})`, median, goals.throughputVsBare, (v) => v.toFixed(2));
  } else if (result.bareCallsPerSecond.length > 0 && resolved) {
    const worst = Math.min(...result.sdkCallsPerSecond.map((sdk, index) => sdk / (result.bareCallsPerSecond[index] ?? Number.NaN)));
    atLeast('calls/s against bare fetch (worst of the heap rounds)', worst, goals.throughputVsBare, (v) => v.toFixed(2));
  }
  if (jobs !== undefined) atMost('job / bound (worst key)', jobs.worst, goals.jobOverBound, (v) => v.toFixed(3));
  out.push({ figure: 'requests over a key\'s budget', value: result.overLimit, goal: 0, score: result.overLimit > 0 ? Number.POSITIVE_INFINITY : 0, text: `${result.overLimit} (goal 0)` });
  out.push({ figure: 'failed calls', value: result.failed, goal: 0, score: result.failed > 0 ? Number.POSITIVE_INFINITY : 0, text: `${result.failed} (goal 0)` });
  return out;
}

/** Each alternating SDK round's calls per second against the mean of the bare rounds before and after it. */
export function alternatingRatios(result: CellResult): number[] {
  const rounds = result.alternating;
  if (rounds === undefined) return [];
  return rounds.sdk.map((sdk, index) => sdk / (((rounds.bare[index] as number) + (rounds.bare[index + 1] as number)) / 2));
}

/** Every figure of a cell on a few lines, as it finishes. */
export function formatCell(result: CellResult): string {
  const lines = [`${cellName(result)} (load avg ${result.load.map((l) => l.toFixed(2)).join(' -> ')})`];
  const sdk = result.sdkCallsPerSecond.map(rate).join(', ');
  if (result.bareCallsPerSecond.length > 0) {
    const ratios = result.sdkCallsPerSecond.map((value, index) => (value / (result.bareCallsPerSecond[index] ?? Number.NaN)).toFixed(2)).join(', ');
    lines.push(`  calls/s (heap rounds): SDK ${sdk}; bare fetch ${result.bareCallsPerSecond.map(rate).join(', ')}; SDK / bare ${ratios}`);
    if (result.alternating !== undefined) {
      const { alternating } = result;
      lines.push(`  calls/s (alternating rounds): bare ${alternating.bare.map(rate).join(', ')}; SDK between them ${alternating.sdk.map(rate).join(', ')}; SDK / bare ${alternatingRatios(result).map((ratio) => ratio.toFixed(2)).join(', ')}`);
    }
  } else {
    lines.push(`  calls/s: SDK ${sdk} over the whole job; offered ${rate(offeredRate(result))} (every key's budget per window)`);
  }
  const { heap, jobs } = result;
  if (heap !== undefined) {
    lines.push(
      `  heap per counted request ${bytes(heap.perCounted)} (${bytes(heap.perCountedVsUsedIdle)} against the used idle clients; array buffers ${bytes(heap.buffersPerCounted)}), ${heap.counted.toLocaleString('en')} counted, read ${(heap.measuredAfterFirstAnswerMs / 1000).toFixed(1)} s after the first answer${heap.measuredAfterFirstAnswerMs >= result.spec.windowMs ? ' (LATE: some counts had ended)' : ''}`,
    );
    lines.push(`  heap per idle client: fresh ${kb(heap.freshIdlePerClient)}, after use ${kb(heap.usedIdlePerClient)}`);
  }
  if (jobs !== undefined) {
    lines.push(
      `  job / bound: worst ${jobs.worst.toFixed(3)} (${(jobs.worstJobMs / 1000).toFixed(2)} s / ${(jobs.worstBoundMs / 1000).toFixed(2)} s, its mean rtt ${jobs.worstRttMs.toFixed(1)} ms), p99 ${jobs.p99.toFixed(3)}, median ${jobs.median.toFixed(3)}; mean rtt ${jobs.meanRttMs.toFixed(1)} ms; all done in ${(jobs.wallMs / 1000).toFixed(1)} s`,
    );
    if (jobs.firstWindowMs !== undefined && jobs.reuseLagMs !== undefined) {
      const ms = (value: number | undefined): string => (value === undefined ? '-' : `${value.toFixed(0)} ms`);
      lines.push(`  first window left after: median key ${ms(jobs.firstWindowMs)}, worst key ${ms(jobs.worstFirstWindowMs)}; later requests left after their slot freed: median key ${ms(jobs.reuseLagMs)}, worst key ${ms(jobs.worstReuseLagMs)}`);
    }
  }
  lines.push(`  over a key's budget: ${result.overLimit}; failed calls: ${result.failed}`);
  return lines.join('\n');
}

export { kb, bytes, rate };
