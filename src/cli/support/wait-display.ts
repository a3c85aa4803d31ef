import { LiveLine } from './live-line.js';
import { writeWrapped } from './text-wrap.js';
import { waitText, watchClientWaits, WaitWatch, type PacingWindows, type WaitEventSource } from './wait-watch.js';

/** How often a wait is repeated on a stream that is not a terminal (a log). */
const PLAIN_REPEAT_MS = 10_000;
/** How often a plain stream is checked for a new wait. */
const PLAIN_POLL_MS = 500;

/**
 * Shows waits longer than ~2 s while a command waits for the API (`create-slots`,
 * `cancel-meetings`): on a terminal, one line redrawn in place with the reason (in short when the
 * terminal is narrow) and the time left, counting down, cleared when the wait is over; otherwise
 * a line when a wait begins and every 10 s while it lasts. Returns a function that stops showing
 * (and clears the line).
 */
export function showWaits(stream: NodeJS.WriteStream, watch: WaitWatch, now: () => number = () => performance.now()): () => void {
  if (stream.isTTY === true) {
    const render = (columns: number): string => {
      const wait = watch.current();
      if (wait === undefined) return '';
      const long = waitText(wait, 'long');
      return long.length < columns ? long : waitText(wait, 'medium');
    };
    const line = new LiveLine({ stream, render, refreshMs: 250 });
    line.start();
    return () => line.stop({ keep: false });
  }
  let shown: { reason: string; at: number } | undefined;
  const timer = setInterval(() => {
    const wait = watch.current();
    if (wait === undefined) {
      shown = undefined;
      return;
    }
    const at = now();
    if (shown !== undefined && shown.reason === wait.reason && at - shown.at < PLAIN_REPEAT_MS) return;
    shown = { reason: wait.reason, at };
    writeWrapped(stream, `${waitText(wait, 'long')}\n`);
  }, PLAIN_POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Runs one API call of a command with its waits shown on `stream` (see {@link showWaits}), fed
 * by the client's events.
 *
 * @example
 * ```ts
 * const result = await withWaitsShown(admin, process.stderr, pacingWindows(undefined), () => admin.bulkCancelMeetings(ids));
 * ```
 */
export async function withWaitsShown<T>(client: WaitEventSource, stream: NodeJS.WriteStream, windows: PacingWindows, call: () => Promise<T>): Promise<T> {
  const watch = new WaitWatch();
  const stopWatching = watchClientWaits(client, watch, windows);
  const stopShowing = showWaits(stream, watch);
  try {
    return await call();
  } finally {
    stopShowing();
    stopWatching();
  }
}
