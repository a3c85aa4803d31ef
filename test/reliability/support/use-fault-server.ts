import { afterAll, afterEach, beforeAll } from 'vitest';
import { startFaultServer, type FaultServer } from './fault-server.js';

/** Generous bound for "ends within bounded time": the point is bounded, not fast, on a shared 2-core machine. */
export const BOUNDED_MS = 5_000;

/**
 * One fault server for the test file: started before the tests, its log and script cleared after
 * each (then `afterEachTest` runs), closed at the end. Returns a handle usable at module level.
 */
export function useFaultServer(afterEachTest?: (server: FaultServer) => void): FaultServer {
  let current: FaultServer | undefined;
  const server = (): FaultServer => {
    if (current === undefined) throw new Error('the fault server is not started yet (use it inside a test)');
    return current;
  };
  beforeAll(async () => {
    current = await startFaultServer();
    afterEachTest?.(current);
  });
  afterEach(() => {
    server().reset();
    afterEachTest?.(server());
  });
  afterAll(() => server().close());
  return {
    get url() {
      return server().url;
    },
    get log() {
      return server().log;
    },
    get largeBodyBytesWritten() {
      return server().largeBodyBytesWritten;
    },
    script: (...steps) => server().script(...steps),
    arrivals: (field) => server().arrivals(field),
    succeeded: (field) => server().succeeded(field),
    reset: () => server().reset(),
    close: () => server().close(),
  };
}
