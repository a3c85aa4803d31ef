import type { GrantProgress } from '../../workflows/grant-to-many/types.js';
import { formatDuration, formatRate, formatTimeLeft } from './duration-format.js';
import { LiveLine } from './live-line.js';
import { progressLine, type ProgressView } from './progress-line.js';
import { outputColumns, wrapText, writeWrapped } from './text-wrap.js';
import { showWaits } from './wait-display.js';
import type { WaitWatch } from './wait-watch.js';

/** Shows a job's progress while it runs. */
export interface ProgressDisplay {
  update(progress: GrantProgress): void;
  /** Prints a line above the progress line (or just a line). */
  log(line: string): void;
  /** The job is stopping (first Ctrl-C): the line says so. */
  stopping(): void;
  /** Draws the last state and releases the terminal. */
  stop(): void;
}

/** Options of {@link createProgressDisplay}. */
export interface ProgressDisplayOptions {
  stream: NodeJS.WriteStream;
  total: number;
  /** Waits to show (a 429's pause, the rate limit, a slow server). */
  waits?: WaitWatch;
  /** How often a plain line is printed when the stream is not a terminal. @default 5_000 */
  plainIntervalMs?: number;
  /** @default performance.now */
  now?: () => number;
}

/** The rate shown is over this much recent time, so it falls to zero within it when the job stalls. */
const RATE_WINDOW_MS = 10_000;

/** What the job reported last, and the recent answer rate as of now. */
class ProgressState {
  last: GrantProgress | undefined;
  #madeAt: number;
  stoppingNow = false;
  /** (time, requests answered) samples within the rate window, oldest first, plus one older anchor. */
  readonly #samples: Array<{ at: number; sent: number }>;

  constructor(
    readonly total: number,
    readonly now: () => number,
    readonly waits: WaitWatch | undefined,
  ) {
    this.#madeAt = now();
    this.#samples = [{ at: this.#madeAt, sent: 0 }];
  }

  update(progress: GrantProgress): void {
    this.last = progress;
    this.#madeAt = this.now();
    this.#samples.push({ at: this.#madeAt, sent: progress.sent });
  }

  /** Answers per second over the last {@link RATE_WINDOW_MS}, as of now (never the rate of a moment long gone). */
  recentRate(now: number): number {
    while (this.#samples.length > 1 && (this.#samples[1]?.at ?? now) <= now - RATE_WINDOW_MS) this.#samples.shift();
    const anchor = this.#samples[0] ?? { at: now, sent: 0 };
    const latest = this.#samples.at(-1) ?? anchor;
    const span = now - anchor.at;
    return span > 0 ? ((latest.sent - anchor.sent) / span) * 1000 : 0;
  }

  view(): ProgressView {
    const now = this.now();
    const last = this.last;
    const done = last?.done ?? 0;
    const wait = done < this.total ? this.waits?.current() : undefined;
    // The last estimate, less the time since it was made (it counts down while nothing finishes);
    // never less than a wait of known length (a 429's pause), which the job cannot end before.
    const estimate = last?.etaMs === undefined ? undefined : Math.max(0, last.etaMs - (now - this.#madeAt));
    const etaMs = estimate === undefined || wait === undefined || wait.atMost ? estimate : Math.max(estimate, wait.leftMs);
    return {
      done,
      total: this.total,
      counts: last?.counts ?? { created: 0, already_granted: 0, skipped: 0, failed: 0, invalid: 0 },
      recentRate: this.recentRate(now),
      etaMs,
      budgetBound: last?.budgetBound ?? false,
      wait,
      stopping: this.stoppingNow,
    };
  }
}

/**
 * A progress line (count, recent rate, ETA, any wait with its reason and time left, and the
 * counts) redrawn in place when `stream` is a terminal, fitted to its width; otherwise (logs and
 * CI) a plain line every 5 s when something moved, and a line for each wait as it begins.
 */
export function createProgressDisplay(options: ProgressDisplayOptions): ProgressDisplay {
  const state = new ProgressState(options.total, options.now ?? (() => performance.now()), options.waits);
  return options.stream.isTTY === true ? terminalLine(options.stream, state) : plainLines(options, state);
}

/** The line appears with the first row done, or after this long: a job refused at once (a journal of another coupon) draws none. */
const FIRST_DRAW_MS = 500;

function terminalLine(stream: NodeJS.WriteStream, state: ProgressState): ProgressDisplay {
  const line = new LiveLine({ stream, render: (columns) => progressLine(state.view(), columns) });
  const first = setTimeout(() => line.start(), FIRST_DRAW_MS);
  first.unref();
  const started = (): LiveLine => {
    clearTimeout(first);
    line.start();
    return line;
  };
  return {
    update(progress) {
      state.update(progress);
      started().redraw();
    },
    // Lines above the status line wrap at the terminal's width, between words.
    log: (text) => started().log(wrapText(text, outputColumns(stream), { hangingIndent: 2 })),
    stopping() {
      state.stoppingNow = true;
      started().redraw();
    },
    stop() {
      clearTimeout(first);
      line.stop({ keep: true });
    },
  };
}

function plainLines({ stream, waits, plainIntervalMs = 5_000 }: ProgressDisplayOptions, state: ProgressState): ProgressDisplay {
  let printed = -1;
  const print = (): void => {
    const view = state.view();
    if (view.done === printed) return;
    printed = view.done;
    const percent = view.total > 0 ? Math.floor((view.done / view.total) * 100) : 100;
    const c = view.counts;
    writeWrapped(
      stream,
      `progress: ${view.done}/${view.total} rows (${percent}%), ${formatRate(view.recentRate)}, ETA ${view.etaMs === undefined ? '?' : formatDuration(view.etaMs)}; ` +
        `created ${c.created}, already ${c.already_granted}, skipped ${c.skipped}, failed ${c.failed}, invalid ${c.invalid}\n`,
    );
  };
  const timer = setInterval(print, plainIntervalMs);
  timer.unref();
  // A wait gets its own line when it begins (and every 10 s while it lasts), not at the next tick.
  const stopWaits = waits === undefined ? undefined : showWaits(stream, waits);
  return {
    update: (progress) => state.update(progress),
    log: (line) => writeWrapped(stream, `${line}\n`),
    stopping() {
      state.stoppingNow = true;
    },
    stop() {
      clearInterval(timer);
      stopWaits?.();
      print();
    },
  };
}
