import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The main entry's module type (every build the benchmark loads has these names). */
export type SdkMain = typeof import('../../src/index.js');
/** The Redis entry's module type. */
export type SdkRedis = typeof import('../../src/redis/index.js');

/** A built SDK (dist/), as integrators run it: the main entry, and the Redis entry on demand. */
export interface BenchSdk extends SdkMain {
  redis(): Promise<SdkRedis>;
}

const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** This checkout's dist/ (npm run bench:tenants builds it first). */
export const OWN_DIST = join(PROJECT_ROOT, 'dist');

/** Loads the build in `dist` (a folder holding index.js and redis/index.js). */
export async function loadSdk(dist: string): Promise<BenchSdk> {
  const entry = join(dist, 'index.js');
  if (!existsSync(entry)) throw new Error(`Failed to load the SDK: ${entry} is missing. Run npm run build (npm run bench:tenants does).`);
  const main = (await import(pathToFileURL(entry).href)) as SdkMain;
  return { ...main, redis: async () => (await import(pathToFileURL(join(dist, 'redis/index.js')).href)) as SdkRedis };
}
