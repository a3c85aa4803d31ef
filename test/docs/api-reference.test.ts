import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const typedocBin = join(root, 'node_modules/typedoc/bin/typedoc');
const outDirs: string[] = [];
/** TypeDoc builds a program of the whole project; generous on a shared 2-core machine. */
const TYPEDOC_TIMEOUT_MS = 120_000;

/** The entry points of package.json `exports`, in the order the reference must list them. */
const ENTRY_MODULES = [
  'school-admin-sdk',
  'school-admin-sdk/testing',
  'school-admin-sdk/testing/msw',
  'school-admin-sdk/redis',
  'school-admin-sdk/scheduling',
  'school-admin-sdk/webhooks',
  'school-admin-sdk/otel',
];

/** Runs the TypeDoc CLI as `npm run docs` does (the project's typedoc.json), with extra arguments. */
async function typedoc(args: string[]): Promise<{ code: number; output: string; out: string }> {
  const out = mkdtempSync(join(tmpdir(), 'school-admin-sdk-docs-'));
  outDirs.push(out);
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [typedocBin, '--out', out, ...args], { cwd: root, encoding: 'utf8' });
    return { code: 0, output: stdout + stderr, out };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}`, out };
  }
}

interface NavigationNode {
  text: string;
  children?: NavigationNode[];
}

/** The sidebar as TypeDoc wrote it (assets/navigation.js: deflated JSON in base64). */
function navigation(out: string): NavigationNode[] {
  const script = readFileSync(join(out, 'assets/navigation.js'), 'utf8');
  const encoded = /"([A-Za-z0-9+/=]+)"/.exec(script)?.[1];
  if (encoded === undefined) throw new Error('navigation.js has no data');
  return JSON.parse(inflateSync(Buffer.from(encoded, 'base64')).toString('utf8')) as NavigationNode[];
}

afterAll(() => {
  for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run docs: TSDoc on every public member, as an error', () => {
  it('the reference of the seven entry points builds without a single warning', { timeout: TYPEDOC_TIMEOUT_MS }, async () => {
    const { code, output, out } = await typedoc([]);
    expect(output).not.toMatch(/warning|error/i);
    expect(code).toBe(0);

    // Grouped by entry point: one sidebar entry per package export, in the order of package.json,
    // instead of the main entry's flat list with the subpaths buried among its members.
    const modules = navigation(out).flatMap((node) => (node.text === 'Modules' ? (node.children ?? []) : [node]));
    expect(modules.map((node) => node.text)).toEqual(ENTRY_MODULES);
    const main = modules[0]?.children ?? [];
    expect(main.map((group) => group.text)).toEqual(['Classes', 'Interfaces', 'Type Aliases', 'Variables', 'Functions']);
  });

  it('an exported function without TSDoc fails the build (exit code not 0) and is named', { timeout: TYPEDOC_TIMEOUT_MS }, async () => {
    // The fixture's own tsconfig keeps the program small; the validation options are typedoc.json's.
    const { code, output } = await typedoc(['--entryPoints', 'test/docs/fixtures/undocumented-entry.ts', '--tsconfig', 'test/docs/fixtures/tsconfig.json']);
    expect(code).not.toBe(0);
    expect(output).toContain('undocumentedHelper');
    expect(output).toMatch(/does not have any documentation/);
    expect(output).not.toMatch(/documentedHelper \(Function\)[^\n]*does not have any documentation/);
  });
});
