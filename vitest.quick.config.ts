import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:quick`: the inner loop (25 to 85 s on a 2-core machine shared with other runs; see
 * the README's Contributing). Unit tests and the conformance suite over msw, in one process pool
 * without per-file isolation; no child processes, no loopback servers, no Redis, no real-time
 * pacing runs. `npm test` runs everything.
 */
export default defineConfig({
  test: {
    include: [
      'test/client/**/*.test.ts',
      'test/cli/unit/**/*.test.ts',
      'test/conformance/msw.test.ts',
      'test/properties/**/*.test.ts',
      'test/rate-limit/**/*.test.ts',
      'test/reliability/transport-guards.test.ts',
      'test/retry/**/*.test.ts',
      'test/scheduling/**/*.test.ts',
      'test/simulator/**/*.test.ts',
      'test/webhooks/**/*.test.ts',
      'test/workflows/**/*.test.ts',
    ],
    // Child processes (CLI runs, SIGKILL and crash tests) and a loopback HTTP server.
    exclude: ['test/simulator/mock-server.test.ts', 'test/workflows/grant-kill-resume.test.ts', 'test/workflows/journal-crash.test.ts', 'test/workflows/resume-budget.test.ts'],
    testTimeout: 20_000,
    pool: 'threads',
    // Some files wait on short real windows: more workers than cores (see vitest.config.ts).
    maxWorkers: Math.max(4, availableParallelism() * 2),
    isolate: false,
  },
});
