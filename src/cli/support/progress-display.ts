import { SingleBar } from 'cli-progress';
import type { GrantProgress } from '../../workflows/grant-to-many/types.js';
import { formatDuration, formatRate } from './duration-format.js';

/** Shows a job's progress while it runs. */
export interface ProgressDisplay {
  update(progress: GrantProgress): void;
  /** Prints a line above the bar (or just a line). */
  log(line: string): void;
  /** Draws the last state and releases the terminal. */
  stop(): void;
}

/** Options of {@link createProgressDisplay}. */
export interface ProgressDisplayOptions {
  stream: NodeJS.WriteStream;
  total: number;
  /** How often a plain line is printed when the stream is not a terminal. @default 5_000 */
  plainIntervalMs?: number;
}

const REFRESH_MS = 1000;

/** The ETA as of now: the last estimate, less the time since it was made. */
function etaText(progress: GrantProgress | undefined, madeAt: number): string {
  if (progress?.etaMs === undefined) return '?';
  const left = Math.max(0, progress.etaMs - (performance.now() - madeAt));
  return `${formatDuration(left)}${progress.budgetBound && left > 0 ? ' (rate limit)' : ''}`;
}

function countsText(progress: GrantProgress | undefined): string {
  const c = progress?.counts;
  if (c === undefined) return '';
  return `created ${c.created}, already ${c.already_granted}, skipped ${c.skipped}, failed ${c.failed}, invalid ${c.invalid}`;
}

/**
 * A progress bar (count, rate, ETA) when `stream` is a terminal, plain periodic lines otherwise
 * (logs and CI). The bar redraws every second even while the job waits for the rate-limit window,
 * so the ETA keeps counting down.
 */
export function createProgressDisplay(options: ProgressDisplayOptions): ProgressDisplay {
  return options.stream.isTTY === true ? terminalBar(options) : plainLines(options);
}

function terminalBar({ stream, total }: ProgressDisplayOptions): ProgressDisplay {
  const bar = new SingleBar({
    stream,
    format: '{bar} {percentage}% | {value}/{total} rows | {rate} | ETA {etaText} | {counts}',
    barsize: 24,
    hideCursor: true,
    fps: 5,
  });
  let last: GrantProgress | undefined;
  let madeAt = performance.now();
  const payload = (): Record<string, string> => ({ rate: formatRate(last?.ratePerSecond ?? 0), etaText: etaText(last, madeAt), counts: countsText(last) });
  bar.start(total, 0, payload());
  const timer = setInterval(() => bar.update(last?.done ?? 0, payload()), REFRESH_MS);
  timer.unref();
  return {
    update(progress) {
      last = progress;
      madeAt = performance.now();
      bar.update(progress.done, payload());
    },
    log(line) {
      // Clear the bar's line, print, and let the next redraw put the bar back below.
      stream.write(`\r\u001b[2K${line}\n`);
      bar.update(last?.done ?? 0, payload());
    },
    stop() {
      clearInterval(timer);
      bar.update(last?.done ?? 0, payload());
      bar.stop();
    },
  };
}

function plainLines({ stream, total, plainIntervalMs = 5_000 }: ProgressDisplayOptions): ProgressDisplay {
  let last: GrantProgress | undefined;
  let madeAt = performance.now();
  let printed = -1;
  const print = (): void => {
    const done = last?.done ?? 0;
    if (done === printed) return;
    printed = done;
    const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
    stream.write(`progress: ${done}/${total} rows (${percent}%), ${formatRate(last?.ratePerSecond ?? 0)}, ETA ${etaText(last, madeAt)}; ${countsText(last)}\n`);
  };
  const timer = setInterval(print, plainIntervalMs);
  timer.unref();
  return {
    update(progress) {
      last = progress;
      madeAt = performance.now();
    },
    log(line) {
      stream.write(`${line}\n`);
    },
    stop() {
      clearInterval(timer);
      print();
    },
  };
}
