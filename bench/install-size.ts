/**
 * What a library user installs: packs the package, installs the tarball into an empty project
 * (its runtime dependencies only, at the versions of package-lock.json, no optional peer) and
 * prints the packages and bytes that land in node_modules, with the tarball's own size.
 *
 * Run: npm run bench:install-size
 */
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createConsumerProject } from '../test/package/support/consumer-project.js';
import { buildAndPack } from '../test/package/support/packed-package.js';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

interface InstalledPackage {
  name: string;
  bytes: number;
}

/** Bytes of every file under `dir` (symlinks not followed). */
function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(path);
    else total += lstatSync(path).size;
  }
  return total;
}

/** Every package folder under `node_modules` (nested ones included), with its size without its own node_modules. */
function installedPackages(nodeModules: string): InstalledPackage[] {
  const found: InstalledPackage[] = [];
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dirs = entry.name.startsWith('@') ? readdirSync(join(nodeModules, entry.name)).map((name) => `${entry.name}/${name}`) : [entry.name];
    for (const name of dirs) {
      const dir = join(nodeModules, name);
      const nested = join(dir, 'node_modules');
      let nestedBytes = 0;
      try {
        if (statSync(nested).isDirectory()) {
          found.push(...installedPackages(nested));
          nestedBytes = treeBytes(nested);
        }
      } catch {
        // No nested node_modules.
      }
      found.push({ name, bytes: treeBytes(dir) - nestedBytes });
    }
  }
  return found;
}

const megabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(2)} MB`;

const workDir = mkdtempSync(join(tmpdir(), 'school-admin-sdk-install-size-'));
try {
  const packed = await buildAndPack(projectRoot, workDir);
  const consumer = await createConsumerProject(projectRoot, workDir, 'consumer', 'module', packed);
  const packages = installedPackages(join(consumer.dir, 'node_modules')).sort((a, b) => b.bytes - a.bytes);
  const total = packages.reduce((sum, item) => sum + item.bytes, 0);
  const manifest = JSON.parse(readFileSync(join(consumer.dir, 'node_modules/school-admin-sdk/package.json'), 'utf8')) as { dependencies: Record<string, string> };
  console.log(`school-admin-sdk ${packed.manifest.version}: dependencies ${Object.keys(manifest.dependencies).join(', ')}`);
  console.log(`tarball: ${megabytes(statSync(packed.tarball).size)} (${packed.files.length} files)`);
  console.log(`installed: ${packages.length} packages (the SDK included), ${megabytes(total)} in node_modules`);
  console.log('| package | size |');
  console.log('|---|---|');
  for (const item of packages) console.log(`| ${item.name} | ${megabytes(item.bytes)} |`);
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
