import type { GrantOutcomeCounts } from '../../workflows/grant-to-many/types.js';
import { formatDuration, formatRate, formatTimeLeft } from './duration-format.js';
import { waitText, type WaitNotice } from './wait-watch.js';

/** What the progress line shows. */
export interface ProgressView {
  done: number;
  total: number;
  counts: GrantOutcomeCounts;
  /** Requests answered per second over the last few seconds: it falls to 0 while the job is stalled. */
  recentRate: number;
  /** Time left, counting down between estimates; undefined when unknown. */
  etaMs: number | undefined;
  /** True when the rate limit sets the ETA. */
  budgetBound: boolean;
  /** A wait over ~2 s, with its reason and time left. */
  wait: WaitNotice | undefined;
  /** True after the first Ctrl-C: no new rows, grants in flight finishing. */
  stopping: boolean;
}

/** How much a line shows; each step of {@link REDUCTIONS} shows less. */
interface Detail {
  bar: number;
  rowsWord: boolean;
  longWait: boolean;
  etaSuffix: boolean;
  rate: boolean;
  /** `all`: already and skipped always; `nonzero`: only when not 0; `none`. */
  extraCounts: 'all' | 'nonzero' | 'none';
  stop: 'long' | 'short' | 'none';
  eta: boolean;
  percent: boolean;
  commas: boolean;
  doneCount: boolean;
}

const FULL: Detail = { bar: 30, rowsWord: true, longWait: true, etaSuffix: true, rate: true, extraCounts: 'all', stop: 'long', eta: true, percent: true, commas: true, doneCount: true };

/**
 * What goes first when the terminal is narrow: decoration, then detail the summary repeats. The
 * counts of created, failed and invalid rows are never dropped, nor is a wait's reason and time
 * left (it only gets shorter); the done/total count and "stopping" (the line above the bar says
 * it in full) go last.
 */
const REDUCTIONS: ReadonlyArray<Partial<Detail>> = [
  // A wait's full sentence only fits a wide terminal; its short form keeps the reason.
  { longWait: false },
  { bar: 20 },
  { bar: 10 },
  { bar: 0 },
  { extraCounts: 'nonzero' },
  { rowsWord: false },
  { etaSuffix: false },
  { stop: 'short' },
  { rate: false },
  { extraCounts: 'none' },
  { percent: false },
  { eta: false },
  { commas: false },
  { doneCount: false },
  { stop: 'none' },
];

function bar(width: number, done: number, total: number): string {
  const filled = total > 0 ? Math.min(width, Math.floor((done / total) * width)) : width;
  return `${'='.repeat(filled)}${'-'.repeat(width - filled)}`;
}

function countsText(counts: GrantOutcomeCounts, detail: Detail): string {
  const extra = detail.extraCounts;
  const parts = [`created ${counts.created}`];
  if (extra === 'all' || (extra === 'nonzero' && counts.already_granted > 0)) parts.push(`already ${counts.already_granted}`);
  if (extra === 'all' || (extra === 'nonzero' && counts.skipped > 0)) parts.push(`skipped ${counts.skipped}`);
  parts.push(`failed ${counts.failed}`, `invalid ${counts.invalid}`);
  return parts.join(detail.commas ? ', ' : ' ');
}

function lineAt(view: ProgressView, detail: Detail): string {
  const percent = view.total > 0 ? Math.floor((view.done / view.total) * 100) : 100;
  const head = [detail.bar > 0 ? bar(detail.bar, view.done, view.total) : '', detail.percent ? `${percent}%` : ''].filter(Boolean).join(' ');
  const segments = [
    head,
    detail.doneCount ? `${view.done}/${view.total}${detail.rowsWord ? ' rows' : ''}` : '',
    view.stopping && detail.stop !== 'none' ? (detail.stop === 'long' ? 'stopping (Ctrl-C again quits at once)' : 'stopping') : '',
    detail.rate ? formatRate(view.recentRate) : '',
    // Once every row is done the ETA says nothing; the counts get its room.
    detail.eta && view.done < view.total ? `ETA ${view.etaMs === undefined ? '?' : formatTimeLeft(view.etaMs)}${detail.etaSuffix && view.budgetBound && (view.etaMs ?? 0) > 0 ? ' (rate limit)' : ''}` : '',
    view.wait === undefined ? '' : waitText(view.wait, detail.longWait ? 'long' : 'short'),
    countsText(view.counts, detail),
  ];
  return segments.filter(Boolean).join(' | ');
}

/**
 * The progress line for a terminal `columns` wide: the most detailed layout that fits in
 * `columns - 1` characters (so the cursor never wraps). At 80 columns and more it always shows the
 * created, failed and invalid counts and a wait's reason and time left.
 *
 * @example
 * ```ts
 * progressLine(view, 80);
 * // '40% | 200/500 | 12.0/s | ETA 34 s | created 198, failed 2, invalid 0'
 * ```
 */
export function progressLine(view: ProgressView, columns: number): string {
  const room = Math.max(1, columns - 1);
  let detail = FULL;
  let line = lineAt(view, detail);
  for (const reduction of REDUCTIONS) {
    if (line.length <= room) return line;
    detail = { ...detail, ...reduction };
    line = lineAt(view, detail);
  }
  return line;
}
