import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The SDK as it is in this checkout (`current`) and as it was before issue 13 (`baseline`, commit
 * 9852450: the bottleneck queue, no lanes), so that a benchmark can measure both side by side in
 * one run on the same machine. The baseline's `src/` is extracted with `git archive` under
 * node_modules/.cache (so its imports resolve to this checkout's node_modules) and loaded by tsx.
 */
export type SdkVersion = 'current' | 'baseline';

export const BASELINE_COMMIT = '9852450';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BASELINE_ROOT = join(PROJECT_ROOT, 'node_modules/.cache/school-admin-sdk-bench', BASELINE_COMMIT);

/** The folder holding a version's `src/`; extracts the baseline on first use. */
export function sdkRoot(version: SdkVersion): string {
  if (version === 'current') return PROJECT_ROOT;
  if (!existsSync(join(BASELINE_ROOT, 'src/index.ts'))) {
    mkdirSync(BASELINE_ROOT, { recursive: true });
    const archive = execFileSync('git', ['archive', BASELINE_COMMIT, 'src'], { cwd: PROJECT_ROOT, maxBuffer: 64 << 20 });
    execFileSync('tar', ['-x', '-C', BASELINE_ROOT], { input: archive });
  }
  return BASELINE_ROOT;
}

/**
 * Why the baseline cannot run here, or undefined when it can: it needs git history and bottleneck
 * (which the current SDK no longer uses, so an integrator may have removed it).
 */
export function baselineUnavailable(): string | undefined {
  try {
    createRequire(join(PROJECT_ROOT, 'package.json')).resolve('bottleneck');
  } catch {
    return 'bottleneck is not installed';
  }
  try {
    sdkRoot('baseline');
  } catch (error) {
    return `git archive ${BASELINE_COMMIT} failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
  return undefined;
}

/** Imports `src/<path>` of a version (e.g. `index.ts`, `redis/index.ts`). */
export async function importSdk<T>(version: SdkVersion, path: string): Promise<T> {
  return (await import(pathToFileURL(join(sdkRoot(version), 'src', path)).href)) as T;
}

/** The main entry's module type (both versions share the names the benchmarks use). */
export type SdkModule = typeof import('../../src/index.js');
/** The Redis entry's module type. */
export type RedisModule = typeof import('../../src/redis/index.js');
