import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_API_KEY, startMockServer } from '../../src/testing/index.js';
import { fencedBlocks, strayMarkers, type FencedBlock } from './support/markdown.js';
import { PROJECT_ROOT, SnippetWorkspace, type SnippetFile } from './support/snippet-workspace.js';

/*
 * Every TypeScript snippet of the README and of the pages under docs/ (where the README's
 * reference material lives) is compiled, and the runnable ones run, so the documentation cannot
 * drift from the code. A snippet says what it is for in an HTML comment on the line before its
 * fence (invisible on GitHub and on the npm page):
 *   <!-- snippet: check -->    type-checked (a fragment may use the names of fixtures/snippet-globals.d.ts.txt)
 *   <!-- snippet: run -->      type-checked, then run with tsx against a fresh mock server of the
 *                              demo school (ADMIN_API_URL and ADMIN_API_KEY point at it); it must
 *                              exit 0 and print each `expect="..."` text, and with
 *                              `output=next-text-block` print exactly the next ```text block (the
 *                              demo school's ids are the same in every fresh simulator)
 *   <!-- snippet: vitest -->   type-checked, then run as a test file under vitest; it must pass
 */

/** The documents whose snippets are checked: the README and every page of docs/ (a new page is included as it is added). */
const DOCUMENTS = ['README.md', ...readdirSync(join(PROJECT_ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];

interface DocumentBlocks {
  document: string;
  text: string;
  blocks: FencedBlock[];
  tsBlocks: FencedBlock[];
}

const documents: DocumentBlocks[] = DOCUMENTS.map((document) => {
  const text = readFileSync(join(PROJECT_ROOT, document), 'utf8');
  const blocks = fencedBlocks(text);
  return { document, text, blocks, tsBlocks: blocks.filter((block) => block.lang === 'ts' || block.lang === 'typescript') };
});
const README = documents[0] as DocumentBlocks;
const snippets = documents.flatMap(({ document, blocks, tsBlocks }) => tsBlocks.map((block) => ({ document, block, blocks })));
const byKind = (kind: string) => snippets.filter(({ block }) => block.marker?.kind === kind).map((snippet) => [`${snippet.document}:${snippet.block.fenceLine}`, snippet] as const);
/** Processes are slow on a shared 2-core machine: tsx or vitest start, import the SDK from source. */
const CHILD_TIMEOUT_MS = 90_000;

let workspace: SnippetWorkspace;
let files: Map<FencedBlock, SnippetFile>;
let problems: Map<SnippetFile, string[]>;

beforeAll(() => {
  workspace = new SnippetWorkspace();
  files = new Map(snippets.map(({ document, block }) => [block, workspace.add(block, document)]));
  problems = workspace.typeCheck();
}, 120_000);

afterAll(() => workspace?.remove());

const expectations = (block: FencedBlock): string[] => (block.marker?.attributes ?? []).filter(([name]) => name === 'expect').map(([, value]) => value);
/** The output a snippet marked `output=next-text-block` shows: the first text block after it in its document. */
const shownOutput = (block: FencedBlock, blocks: FencedBlock[]): string | undefined =>
  block.marker?.attributes.some(([name, value]) => name === 'output' && value === 'next-text-block') === true
    ? (blocks.find((candidate) => candidate.fenceLine > block.fenceLine && candidate.lang === 'text')?.code ?? 'no text block follows')
    : undefined;

describe('snippets: every TypeScript block of the README and of docs/ says whether it is checked, run, or run as a test', () => {
  it.each(documents.map((entry) => [entry.document, entry] as const))('%s: every ts block has a snippet marker on the line before its fence, and no marker is unknown or stray', (document, { text, blocks, tsBlocks }) => {
    expect(tsBlocks.filter((block) => block.marker === undefined).map((block) => `${document}:${block.fenceLine}`)).toEqual([]);
    expect(blocks.flatMap((block) => (block.badMarker === undefined ? [] : [`${document}:${block.fenceLine - 1}: ${block.badMarker}`]))).toEqual([]);
    expect(strayMarkers(text).map((line) => `${document}:${line}`)).toEqual([]);
    expect(blocks.filter((block) => block.marker !== undefined && block.lang !== 'ts').map((block) => `${document}:${block.fenceLine} (${block.lang})`)).toEqual([]);
  });

  it('the README keeps snippets of every kind, and the pages that took its reference material keep theirs', () => {
    expect(README.tsBlocks.length).toBeGreaterThan(10);
    for (const kind of ['check', 'run', 'vitest']) expect(README.tsBlocks.some((block) => block.marker?.kind === kind), kind).toBe(true);
    for (const page of ['docs/options.md', 'docs/events.md', 'docs/errors.md']) expect(documents.find((entry) => entry.document === page)?.tsBlocks.length, page).toBeGreaterThan(0);
  });

  it('the Usage section opens with a runnable snippet of at most a dozen lines, before the first screen ends', () => {
    const usage = README.tsBlocks[0] as FencedBlock;
    expect(usage.marker?.kind).toBe('run');
    expect(README.text.split('\n').slice(0, usage.fenceLine).join('\n')).toContain('## Usage');
    expect(usage.code.split('\n').length).toBeLessThanOrEqual(12);
    expect(usage.fenceLine).toBeLessThan(60);
  });
});

describe('snippets compile against the package source under the project\'s strict settings', () => {
  it.each(snippets.map((snippet) => [`${snippet.document}:${snippet.block.fenceLine}`, snippet] as const))('the snippet at %s compiles', (_where, { block }) => {
    expect(problems.get(files.get(block) as SnippetFile)).toEqual([]);
  });
});

describe('snippets marked run work against the simulator', () => {
  it.each(byKind('run'))('the snippet at %s exits 0 against a fresh demo school, printing what it says', { timeout: CHILD_TIMEOUT_MS + 10_000 }, async (_where, { block, blocks }) => {
    const server = await startMockServer({ seed: 'demo' });
    try {
      const result = await workspace.run(files.get(block) as SnippetFile, { ADMIN_API_URL: server.url, ADMIN_API_KEY: DEMO_API_KEY }, CHILD_TIMEOUT_MS);
      expect({ code: result.code, signal: result.signal }, `${result.stdout}\n${result.stderr}`).toEqual({ code: 0, signal: null });
      for (const text of expectations(block)) expect(result.stdout).toContain(text);
      const shown = shownOutput(block, blocks);
      if (shown !== undefined) expect(result.stdout.trimEnd()).toBe(shown.trimEnd());
    } finally {
      await server.close();
    }
  });
});

describe('snippets marked vitest pass as test files', () => {
  it.each(byKind('vitest'))('the snippet at %s passes under vitest', { timeout: CHILD_TIMEOUT_MS + 10_000 }, async (_where, { block }) => {
    const result = await workspace.runVitest(files.get(block) as SnippetFile, CHILD_TIMEOUT_MS);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/Tests\s+\d+ passed/);
  });
});
