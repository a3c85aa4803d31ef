import { defineConfig } from 'vitest/config';

/**
 * The runtime suite (npm run test:runtimes): the packed SDK in workerd, Bun and Deno, and next to
 * the newest majors of its peers. It installs from the npm registry and needs the runtimes of
 * scripts/install-runtimes.sh, so plain `npm test` leaves it out.
 */
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/runtimes/**/*.test.ts'],
    globalSetup: ['test/runtimes/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Each file starts runtimes and installs; one at a time on a shared machine.
    fileParallelism: false,
  },
});
