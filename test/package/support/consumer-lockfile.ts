import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PackageManifest } from './packed-package.js';

/** One `packages` entry of a v3 package-lock.json. */
export interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  engines?: { node?: string };
  dev?: boolean;
  devOptional?: boolean;
  [field: string]: unknown;
}

/** A v3 package-lock.json. */
export interface Lockfile {
  name: string;
  lockfileVersion: 3;
  requires: true;
  packages: Record<string, LockEntry>;
}

const PACKAGE_DIR = 'node_modules/school-admin-sdk';

/**
 * The lockfile of a project whose only dependency is the packed tarball, with every dependency at
 * the version the SDK's own package-lock.json pins. `npm ci --offline` can then install it from
 * the cache `npm ci` filled: npm resolves new ranges with full registry documents, which `npm ci`
 * never caches, so a plain `npm install <tarball>` would need the network.
 *
 * @example
 * ```ts
 * const lock = consumerLockfile('esm-consumer', projectLock, manifest, tarballPath, 'file:../sdk.tgz');
 * ```
 */
export function consumerLockfile(name: string, projectLock: Lockfile, manifest: PackageManifest, tarballPath: string, tarballSpec: string): Lockfile {
  const packages: Record<string, LockEntry> = {
    '': { name, dependencies: { [manifest.name]: tarballSpec } },
    [PACKAGE_DIR]: {
      version: manifest.version,
      resolved: tarballSpec,
      integrity: `sha512-${createHash('sha512').update(readFileSync(tarballPath)).digest('base64')}`,
      license: manifest['license'],
      dependencies: manifest.dependencies,
      peerDependencies: manifest.peerDependencies,
      peerDependenciesMeta: manifest['peerDependenciesMeta'],
      engines: manifest.engines,
      bin: manifest.bin,
    },
  };
  // Walk the runtime closure the way Node resolves it: the nearest node_modules above the dependent.
  const pending = Object.keys(manifest.dependencies).map((dependency) => ({ from: PACKAGE_DIR, dependency }));
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    const location = locate(projectLock, next.from, next.dependency);
    if (packages[location] !== undefined) continue;
    const { dev: _dev, devOptional: _devOptional, ...entry } = projectLock.packages[location] as LockEntry;
    packages[location] = entry;
    for (const dependency of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) pending.push({ from: location, dependency });
  }
  return { name, lockfileVersion: 3, requires: true, packages };
}

/** Where `dependency`, required from the package at `from`, sits in the project's lockfile. */
function locate(lock: Lockfile, from: string, dependency: string): string {
  // The SDK's own dependencies resolve from the project root, as they do when developing it.
  let dir = from === PACKAGE_DIR ? '' : from;
  for (;;) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${dependency}`;
    if (lock.packages[candidate] !== undefined) return candidate;
    if (dir === '') throw new Error(`Failed to build the consumer lockfile: ${dependency} (needed by ${from}) is not in package-lock.json. Run npm install.`);
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent < 0 ? '' : dir.slice(0, parent);
  }
}
