import { onAbort, stopOnAbort } from '../client/pipeline/abort-listeners.js';

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const aborted = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      if (signal !== undefined) stopOnAbort(signal, aborted);
      resolve();
    }, ms);
    if (signal !== undefined) onAbort(signal, aborted);
  });
}
