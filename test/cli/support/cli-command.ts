import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const SOURCE_MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));

/**
 * The node arguments that start `school-admin`: the bundle built from src/ for this run by
 * test/support/cli-build-global-setup.ts, or (a config without that set-up) the sources via tsx.
 */
export function cliNodeArgs(): string[] {
  const built = inject('cliEntry') as string | undefined;
  return built === undefined ? ['--import', 'tsx', SOURCE_MAIN] : [built];
}
