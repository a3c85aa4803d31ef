import { afterEach } from 'vitest';
import { createSimulator, seedDemoSchool, startMockServer, type MockServer, type SimulatorOptions } from '../../src/testing/index.js';

/**
 * Registers an `afterEach` that closes what it started, and returns a function that serves the
 * demo school over loopback HTTP with a simulator built from `options` (its limits, its latency).
 */
export function useDemoServers(): (options: SimulatorOptions) => Promise<MockServer> {
  const started: MockServer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((server) => server.close()));
  });
  return async (options) => {
    const simulator = createSimulator(options);
    seedDemoSchool(simulator);
    const server = await startMockServer({ simulator });
    started.push(server);
    return server;
  };
}
