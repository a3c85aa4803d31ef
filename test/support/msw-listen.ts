import type { SetupServer } from 'msw/node';

/** What msw does with a request no handler matches. */
export type UnhandledStrategy = 'error' | 'warn' | 'bypass';

/**
 * `server.listen()` options for both msw majors the SDK supports: msw 2 reads
 * `onUnhandledRequest`, msw 3 renamed it `onUnhandledFrame` (and ignores the old name, so a test
 * meant to be strict would only warn). CI runs the suite on msw 2 (Node 20) and msw 3 (Node 22, 24).
 *
 * @example
 * ```ts
 * beforeAll(() => server.listen(listenOptions('error')));
 * ```
 */
export function listenOptions(onUnhandled: UnhandledStrategy): Parameters<SetupServer['listen']>[0] {
  // Each major's type knows only its own key; the other one is ignored at run time.
  return { onUnhandledRequest: onUnhandled, onUnhandledFrame: onUnhandled } as unknown as Parameters<SetupServer['listen']>[0];
}
