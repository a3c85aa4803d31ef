import { writeSync } from 'node:fs';

const HIDE_CURSOR = '\u001b[?25l';
const SHOW_CURSOR = '\u001b[?25h';
const CLEAR_LINE = '\r\u001b[2K';

/** Signals whose default action ends the process without an 'exit' event. */
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Options of {@link LiveLine}. */
export interface LiveLineOptions {
  /** A terminal (`isTTY`); the line is redrawn in place on it. */
  stream: NodeJS.WriteStream;
  /** The line's text for a terminal `columns` wide (it should fit in `columns - 1`; longer text is cut). */
  render: (columns: number) => string;
  /** How often the line is redrawn even without news (counting down, a rate falling while stalled). @default 1_000 */
  refreshMs?: number;
}

/** Columns assumed when the terminal does not say. */
const DEFAULT_COLUMNS = 80;

/**
 * One status line at the bottom of a terminal, redrawn in place, with log lines printed above it.
 * The line never wraps (it is fitted to the width, again on every resize), so line wrapping stays
 * on; the cursor is hidden while it runs and shown again on every way out: `stop()`, a normal or
 * forced exit (`process.exit`, an uncaught error) through the 'exit' event, and SIGINT (when no
 * one else handles it), SIGTERM or SIGHUP, which are then re-raised.
 */
export class LiveLine {
  readonly #stream: NodeJS.WriteStream;
  readonly #render: (columns: number) => string;
  readonly #refreshMs: number;
  #timer: NodeJS.Timeout | undefined;
  /** What the line shows now ('' when empty). */
  #shown = '';
  #running = false;

  constructor(options: LiveLineOptions) {
    this.#stream = options.stream;
    this.#render = options.render;
    this.#refreshMs = options.refreshMs ?? 1_000;
  }

  /** Hides the cursor, draws the line and keeps redrawing it. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    process.on('exit', this.#onExit);
    for (const signal of ENDING_SIGNALS) process.on(signal, this.#onSignal);
    this.#stream.on('resize', this.#onResize);
    this.#stream.write(HIDE_CURSOR);
    this.redraw();
    this.#timer = setInterval(() => this.redraw(), this.#refreshMs);
    this.#timer.unref();
  }

  /** Draws the line now (only when its text changed). */
  redraw(): void {
    if (!this.#running) return;
    const columns = this.#stream.columns > 0 ? this.#stream.columns : DEFAULT_COLUMNS;
    const text = fitToWidth(this.#render(columns), columns);
    if (text === this.#shown) return;
    this.#shown = text;
    this.#stream.write(`${CLEAR_LINE}${text}`);
  }

  /** Prints a whole line above the status line (it may wrap: wrapping is never turned off). */
  log(line: string): void {
    if (!this.#running) {
      this.#stream.write(`${line}\n`);
      return;
    }
    this.#stream.write(`${CLEAR_LINE}${line}\n`);
    this.#shown = '';
    this.redraw();
  }

  /** Draws the last state, leaves it on its own line (or clears it) and gives the terminal back. */
  stop(options: { keep: boolean } = { keep: true }): void {
    if (!this.#running) return;
    this.redraw();
    this.#stream.write(options.keep && this.#shown !== '' ? '\n' : CLEAR_LINE);
    this.#stream.write(SHOW_CURSOR);
    this.#release();
  }

  #release(): void {
    this.#running = false;
    this.#shown = '';
    clearInterval(this.#timer);
    process.off('exit', this.#onExit);
    for (const signal of ENDING_SIGNALS) process.off(signal, this.#onSignal);
    this.#stream.off('resize', this.#onResize);
  }

  readonly #onResize = (): void => {
    // The old line may have been re-flowed by the terminal: clear it and draw afresh.
    this.#shown = '';
    this.redraw();
  };

  /** The process is ending (process.exit, an uncaught error): only synchronous writes get out now. */
  readonly #onExit = (): void => {
    const end = this.#shown === '' ? '' : '\n';
    this.#release();
    try {
      writeSync((this.#stream as { fd?: number }).fd ?? 2, `${end}${SHOW_CURSOR}`);
    } catch {
      // The terminal is gone: nothing left to restore.
    }
  };

  readonly #onSignal = (signal: NodeJS.Signals): void => {
    // Another SIGINT handler (a job's graceful stop) owns Ctrl-C: the line stays up meanwhile.
    if (signal === 'SIGINT' && process.listenerCount('SIGINT') > 1) return;
    this.#onExit();
    process.kill(process.pid, signal);
  };
}

/** Cuts `text` so it fits on one line of a terminal `columns` wide (the last column left free, so the cursor never wraps). */
export function fitToWidth(text: string, columns: number): string {
  const room = Math.max(1, columns - 1);
  return text.length <= room ? text : text.slice(0, room);
}
