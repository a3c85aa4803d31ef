import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from './run-command.js';

/** esbuild's metafile: which sources went into which output file. */
export interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown>; entryPoint?: string }>;
}

/** The package as `npm pack` makes it, built from a copy of the working tree. */
export interface PackedPackage {
  /** Absolute path of the `.tgz`. */
  tarball: string;
  /** File paths inside the tarball, relative to its `package/` folder. */
  files: string[];
  /** The packed package.json. */
  manifest: PackageManifest;
  /** esbuild's metafiles of the ESM and CJS builds (outputs keyed `dist/...`). */
  metafiles: { esm: Metafile; cjs: Metafile };
}

/** The package.json fields these tests read. */
export interface PackageManifest {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  engines: { node: string };
  bin: Record<string, string>;
  exports: Record<string, string | Record<string, { types: string; default: string }>>;
  /** node10 resolution's view of the subpaths' declarations. */
  typesVersions: Record<string, Record<string, string[]>>;
  /** Private imports (`#journal`), by condition. */
  imports: Record<string, unknown>;
  [field: string]: unknown;
}

/** What the build needs from the working tree; docs/, README, CHANGELOG and LICENSE go in the tarball. */
const BUILD_INPUTS = ['src', 'package.json', 'tsconfig.json', 'tsup.config.ts', 'docs', 'README.md', 'CHANGELOG.md', 'LICENSE'];

/**
 * Builds and packs the package in `workDir`: the build inputs are copied to `workDir/source`
 * (node_modules linked), so a concurrent build in the project cannot change what is tested and
 * the project's own dist/ is left alone. `npm run build -- --metafile` records which sources each
 * output holds; the metafiles are moved out of dist/ before `npm pack`.
 */
export async function buildAndPack(projectRoot: string, workDir: string): Promise<PackedPackage> {
  const source = join(workDir, 'source');
  mkdirSync(source, { recursive: true });
  for (const entry of BUILD_INPUTS) {
    if (existsSync(join(projectRoot, entry))) cpSync(join(projectRoot, entry), join(source, entry), { recursive: true });
  }
  symlinkSync(join(projectRoot, 'node_modules'), join(source, 'node_modules'), 'dir');
  // What `npm run docs` leaves in the tree (CI runs it between two `npm test`s): TypeDoc's HTML
  // reference with copies of the Markdown pages, whose links only work on the docs site. It must
  // never be packed, whether or not the docs were built before this test.
  mkdirSync(join(source, 'docs/api/media'), { recursive: true });
  writeFileSync(join(source, 'docs/api/index.html'), '<!doctype html><title>school-admin-sdk</title>\n');
  writeFileSync(join(source, 'docs/api/media/faq.md'), '[Requirements](../README.md#requirements)\n');

  await runCommand('npm', ['run', 'build', '--', '--metafile'], { cwd: source });
  const metaDir = join(workDir, 'metafiles');
  mkdirSync(metaDir);
  for (const format of ['esm', 'cjs']) renameSync(join(source, 'dist', `metafile-${format}.json`), join(metaDir, `${format}.json`));
  // The bin's own build (dist/cli) writes one too; it is not part of the package.
  rmSync(join(source, 'dist/cli/metafile-esm.json'), { force: true });

  // The build just ran; prepack would only run it again.
  const { stdout } = await runCommand('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', workDir], { cwd: source });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (packed === undefined) throw new Error(`Failed to pack: npm pack printed no result. Output: ${stdout}`);
  return {
    tarball: join(workDir, packed.filename),
    files: packed.files.map((file) => file.path).sort(),
    manifest: JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as PackageManifest,
    metafiles: {
      esm: JSON.parse(readFileSync(join(metaDir, 'esm.json'), 'utf8')) as Metafile,
      cjs: JSON.parse(readFileSync(join(metaDir, 'cjs.json'), 'utf8')) as Metafile,
    },
  };
}
