import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { consumerLockfile, type Lockfile } from './consumer-lockfile.js';
import type { PackedPackage } from './packed-package.js';
import { runCommand, type CommandOutput } from './run-command.js';

/** A project in a temporary folder that depends on the packed tarball only. */
export interface ConsumerProject {
  dir: string;
  /** Writes a file into the project. */
  write(path: string, text: string): void;
  /** Runs `node <args>` in the project with the Node that runs the tests. */
  node(args: readonly string[]): Promise<CommandOutput>;
  /** Type-checks and compiles the project's TypeScript with the SDK's own compiler. */
  tsc(): Promise<CommandOutput>;
}

/**
 * Makes `<workDir>/<name>` (package.json of the given `type` + a lockfile pinned to the SDK's own
 * versions) and installs the tarball with `npm ci --prefer-offline`: its dependencies come from
 * the npm cache that the project's `npm ci` filled.
 */
export async function createConsumerProject(
  projectRoot: string,
  workDir: string,
  name: string,
  type: 'module' | 'commonjs',
  packed: PackedPackage,
): Promise<ConsumerProject> {
  const dir = join(workDir, name);
  mkdirSync(dir);
  const spec = `file:../${basename(packed.tarball)}`;
  const projectLock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8')) as Lockfile;
  const write = (path: string, text: string): void => writeFileSync(join(dir, path), text);
  write('package.json', `${JSON.stringify({ name, private: true, type, dependencies: { [packed.manifest.name]: spec } }, null, 2)}\n`);
  write('package-lock.json', `${JSON.stringify(consumerLockfile(name, projectLock, packed.manifest, packed.tarball, spec), null, 2)}\n`);
  write(
    'tsconfig.json',
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        strict: true,
        // @types/node comes from the SDK's own install: the consumer only has the SDK's runtime dependencies.
        typeRoots: [join(projectRoot, 'node_modules/@types')],
        types: ['node'],
        outDir: 'out',
      },
      include: ['*.mts', '*.cts'],
    }),
  );
  await runCommand('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir });
  return {
    dir,
    write,
    node: (args) => runCommand(process.execPath, args, { cwd: dir }),
    tsc: () => runCommand(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir }),
  };
}
