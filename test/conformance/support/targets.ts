import type { SetupServer } from 'msw/node';
import { startMockServer, type Simulator } from '../../../src/testing/index.js';
import { simulatorHandlers } from '../../../src/testing/msw.js';

/** A running connection from the SDK to a simulator. */
export interface Connection {
  baseUrl: string;
  close(): Promise<void>;
}

/** How the conformance suite reaches the simulator: msw in-process, or real HTTP on loopback. */
export interface ConformanceTarget {
  name: string;
  connect(simulator: Simulator): Promise<Connection>;
}

/** Through msw: the caller's `setupServer()` is listening; each test installs its simulator. */
export function mswTarget(server: SetupServer): ConformanceTarget {
  const baseUrl = 'https://school.example';
  return {
    name: 'msw',
    connect: async (simulator) => {
      server.use(...simulatorHandlers(simulator, baseUrl));
      return { baseUrl, close: async () => server.resetHandlers() };
    },
  };
}

/** Over real HTTP: a loopback server on 127.0.0.1 per test. */
export const httpTarget: ConformanceTarget = {
  name: 'http://127.0.0.1',
  connect: async (simulator) => {
    const server = await startMockServer({ simulator, host: '127.0.0.1', port: 0 });
    return { baseUrl: server.url, close: () => server.close() };
  },
};
