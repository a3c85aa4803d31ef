import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { headingAnchors, markdownLinks } from '../readme/support/markdown.js';
import { PROJECT_ROOT } from '../readme/support/snippet-workspace.js';
import { runCommand } from './support/run-command.js';

/*
 * Issue 30, point 3: the docs ship with the package, and their links work where an installed copy
 * is read. The file list is the one `npm pack --dry-run --json` prints for the working tree (no
 * build: `--ignore-scripts`; dist/ is checked by package.test.ts, which packs a build). In
 * node_modules only the packed files are there, so every relative link of every packed Markdown
 * file must name a packed file (and a heading it has); on the npm page a relative link resolves
 * against the repository, where the same files are.
 */

let packed: Set<string>;
beforeAll(async () => {
  const { stdout } = await runCommand('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PROJECT_ROOT });
  const [result] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
  packed = new Set((result?.files ?? []).map((file) => file.path));
}, 60_000);

const DOCS_PAGES = readdirSync(join(PROJECT_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);

/** Why a relative link of the packed `document` would not open in node_modules, or undefined. */
function brokenInPackage(target: string, document: string): string | undefined {
  if (/^[a-z][a-z+.-]*:/iu.test(target)) return undefined; // absolute: opens wherever it is read
  const [path = '', anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? document : normalize(join(dirname(document), decodeURIComponent(path))).replace(/\/$/u, '');
  if (!packed.has(file)) return `${file} is not in the package`;
  if (anchor !== undefined && file.endsWith('.md') && !headingAnchors(readFileSync(join(PROJECT_ROOT, file), 'utf8')).has(anchor)) return `${file} has no heading #${anchor}`;
  return undefined;
}

describe('"npm pack holds docs/" and the links of what it holds work from node_modules (issue 30)', () => {
  it('the packed file list holds every page of docs/, the README, the changelog and the license', () => {
    expect(DOCS_PAGES.length).toBeGreaterThan(5);
    expect([...DOCS_PAGES, 'README.md', 'CHANGELOG.md', 'LICENSE'].filter((file) => !packed.has(file))).toEqual([]);
  });

  it('every relative link of every packed Markdown file names a packed file and a heading it has', () => {
    const markdown = [...packed].filter((file) => file.endsWith('.md')).sort();
    expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/webhooks.md']));
    const relative = markdown.flatMap((document) =>
      markdownLinks(readFileSync(join(PROJECT_ROOT, document), 'utf8')).map((link) => ({ document, ...link })),
    ).filter(({ target }) => !/^[a-z][a-z+.-]*:/iu.test(target));
    // The README reaches its reference pages this way: the check has links to look at.
    expect(relative.filter(({ document, target }) => document === 'README.md' && target.startsWith('docs/')).length).toBeGreaterThan(10);
    const broken = relative.flatMap(({ document, target, line }) => {
      const problem = brokenInPackage(target, document);
      return problem === undefined ? [] : [`${document}:${line}: ${target}: ${problem}`];
    });
    expect(broken).toEqual([]);
  });
});
