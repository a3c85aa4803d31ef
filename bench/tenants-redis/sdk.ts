import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { StoreClass } from './legs.js';

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The SDK's sources of a build: this checkout (`now`), or a commit's `src/` extracted once under node_modules/.cache. */
function sourceRoot(build: string): string {
  if (build === 'now') return PROJECT_ROOT;
  const root = join(PROJECT_ROOT, 'node_modules/.cache/school-admin-sdk-bench', build);
  if (!existsSync(join(root, 'src/index.ts'))) {
    mkdirSync(root, { recursive: true });
    const archive = execFileSync('git', ['archive', build, 'src'], { cwd: PROJECT_ROOT, maxBuffer: 64 << 20 });
    execFileSync('tar', ['-x', '-C', root], { input: archive });
  }
  return root;
}

/** What a cell uses of a build: the client and the Redis store. */
export interface BenchSdk {
  AdminClient: typeof import('../../src/index.js').AdminClient;
  RedisPermitStore: StoreClass;
  /** The memory store, as a reference leg (bench:tenants holds it to its own goals). */
  MemoryPermitStore: new () => import('../../src/rate-limit/permit-store.js').PermitStore;
}

export async function loadSdk(build: string): Promise<BenchSdk> {
  const root = sourceRoot(build);
  const main = (await import(pathToFileURL(join(root, 'src/index.ts')).href)) as typeof import('../../src/index.js');
  const redis = (await import(pathToFileURL(join(root, 'src/redis/index.ts')).href)) as { RedisPermitStore: StoreClass };
  return { AdminClient: main.AdminClient, RedisPermitStore: redis.RedisPermitStore, MemoryPermitStore: main.MemoryPermitStore };
}

/** Extracts a build's sources now (the orchestrator, before the cells run in parallel-free order). */
export function prepareBuild(build: string): void {
  sourceRoot(build);
}
