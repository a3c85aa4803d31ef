/** What runs when a signal aborts: a function, or an object with `handleEvent` (no closure needed). */
export type AbortHandler = (() => void) | { handleEvent(): void };

/**
 * The handlers of one signal behind one `abort` listener. Node warns (MaxListenersExceededWarning)
 * once an AbortSignal has more than 10 listeners, which an app passing one signal to a batch of
 * concurrent calls would otherwise see from each queued, paused or in-flight call.
 */
class AbortFanOut {
  readonly handlers = new Set<AbortHandler>();

  constructor(readonly signal: AbortSignal) {}

  handleEvent(): void {
    fanOuts.delete(this.signal);
    const handlers = [...this.handlers];
    this.handlers.clear();
    for (const handler of handlers) {
      if (typeof handler === 'function') handler();
      else handler.handleEvent();
    }
  }
}

/** Keyed by the signal and dropped when its last handler leaves: holds nothing a signal does not. */
const fanOuts = new WeakMap<AbortSignal, AbortFanOut>();

/** Runs `handler` once when `signal` aborts (until {@link stopOnAbort}); one real listener per signal. */
export function onAbort(signal: AbortSignal, handler: AbortHandler): void {
  let fanOut = fanOuts.get(signal);
  if (fanOut === undefined) {
    fanOut = new AbortFanOut(signal);
    fanOuts.set(signal, fanOut);
    signal.addEventListener('abort', fanOut, { once: true });
  }
  fanOut.handlers.add(handler);
}

/** Forgets `handler`; the signal's listener goes with its last handler. */
export function stopOnAbort(signal: AbortSignal, handler: AbortHandler): void {
  const fanOut = fanOuts.get(signal);
  if (fanOut === undefined || !fanOut.handlers.delete(handler) || fanOut.handlers.size > 0) return;
  fanOuts.delete(signal);
  signal.removeEventListener('abort', fanOut);
}
