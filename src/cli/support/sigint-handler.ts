/** What {@link handleSigint} installed. */
export interface SigintHandle {
  /** Aborts at the first Ctrl-C. */
  signal: AbortSignal;
  /** Removes the handler (the job is over). */
  dispose(): void;
}

/**
 * First Ctrl-C: abort `signal` (the job stops cleanly) and print `firstMessage`. Second Ctrl-C:
 * print `forcedMessage` and exit at once with status 130.
 */
export function handleSigint(write: (line: string) => void, messages: { first: () => string; forced: string }): SigintHandle {
  const controller = new AbortController();
  const onSigint = (): void => {
    if (!controller.signal.aborted) {
      write(messages.first());
      controller.abort(new Error('interrupted by Ctrl-C'));
      return;
    }
    write(messages.forced);
    process.exit(130);
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}
