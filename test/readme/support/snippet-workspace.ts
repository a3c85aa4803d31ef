import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { FencedBlock } from './markdown.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const GLOBALS_FIXTURE = fileURLToPath(new URL('../fixtures/snippet-globals.d.ts.txt', import.meta.url));

/** A snippet of a Markdown document written to a file of the workspace. */
export interface SnippetFile {
  block: FencedBlock;
  /** The document it comes from, relative to the project (`README.md`, `docs/options.md`). */
  document: string;
  /** Absolute path of the file. */
  path: string;
}

/**
 * Each public import specifier (`school-admin-sdk`, `school-admin-sdk/testing`, ...) with the source
 * file it is built from, read from package.json `exports` (`./dist/x/y.js` is built from `src/x/y.ts`),
 * so the snippets are checked against the source of exactly the entry points the package exports.
 */
export function entryPointSources(): Array<[specifier: string, source: string]> {
  const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { import: { default: string } }>;
  };
  return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
    if (typeof target === 'string') return [];
    const source = join(PROJECT_ROOT, target.import.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
    if (!existsSync(source)) throw new Error(`package.json exports ${subpath} from ${target.import.default}, but ${source} does not exist`);
    return [[`${manifest.name}${subpath.slice(1)}`, source] as [string, string]];
  });
}

/**
 * A scratch directory inside the project (so `node_modules` resolves as for any project file, and
 * `.tmp/` is git-ignored) holding the snippets (of the README and of docs/) as modules, a tsconfig that extends the project's
 * strict one and maps the package's import specifiers to its source, and the ambient declarations
 * the fragment snippets lean on (`admin`, `couponId`, ...: what the README's earlier sections made).
 */
export class SnippetWorkspace {
  readonly dir: string;
  readonly files: SnippetFile[] = [];
  readonly #entryPoints = entryPointSources();

  constructor() {
    mkdirSync(join(PROJECT_ROOT, '.tmp'), { recursive: true });
    this.dir = mkdtempSync(join(PROJECT_ROOT, '.tmp', 'readme-snippets-'));
    const paths = Object.fromEntries(this.#entryPoints.map(([specifier, source]) => [specifier, [relative(this.dir, source)]]));
    const tsconfig = { extends: relative(this.dir, join(PROJECT_ROOT, 'tsconfig.json')), compilerOptions: { paths }, include: ['*.ts'] };
    writeFileSync(join(this.dir, 'tsconfig.json'), `${JSON.stringify(tsconfig, null, 2)}\n`);
    copyFileSync(GLOBALS_FIXTURE, join(this.dir, 'snippet-globals.d.ts'));
  }

  /** Writes a snippet as a module (a vitest one as a test file) named after its document and line. */
  add(block: FencedBlock, document = 'README.md'): SnippetFile {
    const suffix = block.marker?.kind === 'vitest' ? '.test.ts' : '.ts';
    const name = document.replace(/\.md$/u, '').replace(/[^a-z0-9]+/giu, '-').toLowerCase();
    const path = join(this.dir, `${name}-line-${block.fenceLine}${suffix}`);
    // `export {}` makes every snippet a module: its own scope, and top-level await allowed.
    writeFileSync(path, `${block.code}\nexport {};\n`);
    const file = { block, document, path };
    this.files.push(file);
    return file;
  }

  /**
   * Type-checks every snippet in one program, with the project's compiler options; returns each
   * problem as `<document>:<line>: <message>` (lines of the document, not of the scratch files).
   */
  typeCheck(): Map<SnippetFile, string[]> {
    const parsed = ts.getParsedCommandLineOfConfigFile(join(this.dir, 'tsconfig.json'), {}, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    });
    if (parsed === undefined) throw new Error('the snippet tsconfig did not parse');
    const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
    const general = [...parsed.errors, ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
    const globals = program.getSourceFile(join(this.dir, 'snippet-globals.d.ts'));
    if (globals !== undefined) general.push(...program.getSemanticDiagnostics(globals));
    if (general.length > 0) throw new Error(ts.formatDiagnostics(general, formatHost));
    const problems = new Map<SnippetFile, string[]>();
    for (const file of this.files) {
      const source = program.getSourceFile(file.path);
      if (source === undefined) throw new Error(`${file.path} is not part of the program`);
      const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
      problems.set(
        file,
        diagnostics.map((diagnostic) => {
          const line = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line;
          return `${file.document}:${file.block.fenceLine + 1 + line}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
        }),
      );
    }
    return problems;
  }

  /** Runs a snippet with tsx (which resolves the package through the workspace's tsconfig paths). */
  run(file: SnippetFile, env: Record<string, string>, timeoutMs: number): Promise<ChildResult> {
    return runChild(process.execPath, ['--import', 'tsx', file.path], env, this.dir, timeoutMs);
  }

  /** Runs a snippet as a test file under the project's vitest, with the package mapped to its source. */
  runVitest(file: SnippetFile, timeoutMs: number): Promise<ChildResult> {
    const config = join(this.dir, `vitest-${file.path.replace(/^.*\/|\.test\.ts$/gu, '')}.config.mjs`);
    const alias = this.#entryPoints.map(([specifier, source]) => ({ find: new RegExp(`^${specifier.replace(/[/-]/g, '\\$&')}$`), replacement: source }));
    writeFileSync(
      config,
      `export default {\n  resolve: { alias: [${alias.map(({ find, replacement }) => `{ find: ${String(find)}, replacement: ${JSON.stringify(replacement)} }`).join(', ')}] },\n` +
        `  test: { include: [${JSON.stringify(relative(this.dir, file.path))}], pool: 'forks', testTimeout: 20_000 },\n};\n`,
    );
    const vitest = join(PROJECT_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
    return runChild(process.execPath, [vitest, 'run', '--root', this.dir, '--config', config], {}, this.dir, timeoutMs);
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => PROJECT_ROOT,
  getNewLine: () => '\n',
};

/** How a child process ended, with what it printed. */
export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a process with a minimal environment (no ADMIN_API_* of the developer's shell) and a deadline. */
function runChild(command: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs: number): Promise<ChildResult> {
  const base = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NO_COLOR: '1' };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const deadline = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
