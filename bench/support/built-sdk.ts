import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CACHE = join(PROJECT_ROOT, 'node_modules/.cache/school-admin-sdk-bench');

/**
 * The dist/ of the SDK at `commit`, built as `npm run build` builds it (so a benchmark can run a
 * former version beside this checkout's build, as integrators run it). The commit's tree is
 * extracted with `git archive` under node_modules/.cache, its node_modules is this checkout's, and
 * tsup builds it once; later runs reuse the build.
 */
export function builtSdk(commit: string): string {
  const root = join(CACHE, `${commit}-build`);
  const dist = join(root, 'dist');
  if (existsSync(join(dist, 'index.js'))) return dist;
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const archive = execFileSync('git', ['archive', commit], { cwd: PROJECT_ROOT, maxBuffer: 256 << 20 });
  execFileSync('tar', ['-x', '-C', root], { input: archive });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  execFileSync(process.execPath, [join(PROJECT_ROOT, 'node_modules/tsup/dist/cli-default.js')], { cwd: root, stdio: 'ignore' });
  if (!existsSync(join(dist, 'index.js'))) throw new Error(`Failed to build the SDK of ${commit}: tsup left no dist/index.js in ${root}.`);
  return dist;
}
