/** What {@link handleSigint} installed. */
export interface SigintHandle {
  /** Aborts at the first Ctrl-C. */
  signal: AbortSignal;
  /** Removes the handler (the job is over). */
  dispose(): void;
}

/**
 * A second SIGINT sooner than this after the first is taken as the same Ctrl-C: a launcher in
 * between (tsx, a process manager) may pass the terminal's signal on once more.
 */
export const SAME_KEYPRESS_MS = 500;

/**
 * First Ctrl-C: abort `signal` (the job stops cleanly) and print `first`. A second Ctrl-C (at least
 * {@link SAME_KEYPRESS_MS} later): print `forced` and exit at once with status 130.
 */
export function handleSigint(write: (line: string) => void, messages: { first: () => string; forced: string }, now: () => number = Date.now): SigintHandle {
  const controller = new AbortController();
  let firstAt = 0;
  const onSigint = (): void => {
    if (!controller.signal.aborted) {
      firstAt = now();
      write(messages.first());
      controller.abort(new Error('interrupted by Ctrl-C'));
      return;
    }
    if (now() - firstAt < SAME_KEYPRESS_MS) return;
    write(messages.forced);
    process.exit(130);
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}
