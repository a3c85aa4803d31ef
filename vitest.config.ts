import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The runtime suite needs workerd, Bun, Deno and the registry: npm run test:runtimes.
    exclude: ['test/runtimes/**', '**/node_modules/**'],
    // Type tests (test/**/*.test-d.ts) are compiled by `npm run typecheck` (tsc), which `npm test` runs first.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Finds redis-server (or REDIS_URL), installs it where it can, else skips the Redis suites loudly (fails under CI).
    globalSetup: ['test/support/redis-global-setup.ts'],
  },
});
