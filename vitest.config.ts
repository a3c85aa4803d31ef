import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { MEASURED_ALONE } from './test/support/measured-alone.js';

// `npm test`'s second pass (scripts/test.mjs): the wall-clock-bound files, one at a time.
const measuredAlone = process.env['SCHOOL_ADMIN_MEASURED_ALONE'] === '1';

export default defineConfig({
  test: {
    include: measuredAlone ? MEASURED_ALONE : ['test/**/*.test.ts'],
    // The runtime suite needs workerd, Bun, Deno and the registry: npm run test:runtimes.
    exclude: ['test/runtimes/**', '**/node_modules/**', ...(measuredAlone ? [] : MEASURED_ALONE)],
    // Type tests (test/**/*.test-d.ts) are compiled by `npm run typecheck` (tsc), which `npm test` runs alongside
    // (test/types/exact-optional.test-d.ts a second time with exactOptionalPropertyTypes).
    // A hang guard, not a speed check (speed is the benches' job): CPU-bound property and
    // many-keys tests take 10-15 s alone and over 20 s while four workers share 2 cores.
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Many files mostly wait (real rate-limit windows, child processes, terminals): twice as many
    // workers as cores keeps the cores busy (2 cores: 4 workers; measured 264 s -> 105 s).
    maxWorkers: measuredAlone ? 1 : Math.max(4, availableParallelism() * 2),
    // Files share a worker's module cache instead of re-importing vitest and the SDK each time:
    // half the CPU of the unit suites (measured 18.9 s -> 9.0 s). Tests keep no state between
    // files; each builds its own clients, servers and stores.
    isolate: false,
    globalSetup: [
      // Finds redis-server (or REDIS_URL), installs it where it can, else skips the Redis suites loudly (fails under CI).
      'test/support/redis-global-setup.ts',
      // Bundles the CLI once from src/ for the CLI tests' child processes.
      'test/support/cli-build-global-setup.ts',
    ],
  },
});
