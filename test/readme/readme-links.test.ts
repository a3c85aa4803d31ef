import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headingAnchors, markdownLinks } from './support/markdown.js';
import { PROJECT_ROOT } from './support/snippet-workspace.js';

/*
 * README.md, CHANGELOG.md and the pages under docs/ ship in the package (package.json `files`), so
 * they are read on GitHub, on the npm registry's page (which resolves a relative link against the
 * repository) and in node_modules, offline, where only what the package ships is there. So a
 * relative link must name a file the package ships (and the repository has: the same file on the
 * registry's page), and everything else is linked absolutely, under package.json's repository URL,
 * naming a file (and heading) the repository has. test/package/packed-docs.test.ts checks the same
 * against the file list `npm pack` makes.
 */

const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  repository: { url: string };
  homepage: string;
  bugs: { url: string };
  files: string[];
};
/** https://github.com/<owner>/<name>, from `git+https://github.com/<owner>/<name>.git`. */
const REPOSITORY = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
/** The branch the absolute links name (the repository's default branch, an assumption like the URL). */
const BRANCH = 'main';
const tracked = new Set(execFileSync('git', ['ls-files'], { cwd: PROJECT_ROOT, encoding: 'utf8' }).split('\n').filter(Boolean));
const DOCUMENTS = ['README.md', 'CHANGELOG.md'];
const DOCS_PAGES = readdirSync(join(PROJECT_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
const shipped = (path: string): boolean => manifest.files.some((entry) => path === entry || path.startsWith(`${entry}/`));

/** Why a link target is wrong, or undefined when it is fine. */
function problemOf(target: string, document: string): string | undefined {
  const [path = '', anchor] = target.split('#', 2) as [string, string | undefined];
  if (target.startsWith('#')) return headingAnchors(read(document)).has(target.slice(1)) ? undefined : `no heading of ${document} has the anchor ${target}`;
  if (target.startsWith(`${REPOSITORY}/`)) {
    const file = new RegExp(`^${REPOSITORY}/(blob|tree)/${BRANCH}/(.+)$`).exec(path);
    if (file === null) return /\/(blob|tree)\//.test(path) ? `links into the repository name the ${BRANCH} branch` : undefined;
    return repositoryProblem(file[1] as 'blob' | 'tree', decodeURIComponent(file[2] as string), anchor);
  }
  if (/^[a-z][a-z+.-]*:/i.test(target)) return target.startsWith('https://') || target.startsWith('mailto:') ? undefined : 'use https';
  // Relative: read in node_modules too, so only what the package ships.
  if (!shipped(path)) return `a relative link outside the package's files breaks in node_modules: link ${REPOSITORY}/blob/${BRANCH}/${path} instead`;
  return tracked.has(path) ? repositoryProblem('blob', path, anchor) : `${path} is not in the repository`;
}

function repositoryProblem(kind: 'blob' | 'tree', path: string, anchor: string | undefined): string | undefined {
  const clean = path.replace(/\/$/, '');
  if (kind === 'tree') return [...tracked].some((file) => file.startsWith(`${clean}/`)) ? undefined : `the repository has no folder ${clean}`;
  if (!tracked.has(clean)) return `the repository has no file ${clean}`;
  if (anchor !== undefined && clean.endsWith('.md') && !headingAnchors(read(clean)).has(anchor)) return `no heading of ${clean} has the anchor #${anchor}`;
  return undefined;
}

/** Why a link of a docs page is wrong (relative links resolve next to the page, to a file the package ships), or undefined. */
function pageLinkProblem(target: string, page: string): string | undefined {
  if (target.startsWith('#')) return headingAnchors(read(page)).has(target.slice(1)) ? undefined : `no heading of ${page} has the anchor ${target}`;
  if (/^[a-z][a-z+.-]*:/i.test(target)) return problemOf(target, page);
  const [path = '', anchor] = target.split('#', 2) as [string, string | undefined];
  const file = normalize(join(dirname(page), decodeURIComponent(path))).replace(/\/$/u, '');
  if (!shipped(file)) return `a relative link outside the package's files breaks in node_modules: link ${REPOSITORY}/blob/${BRANCH}/${file} instead`;
  return repositoryProblem('blob', file, anchor);
}

function read(file: string): string {
  return readFileSync(join(PROJECT_ROOT, file), 'utf8');
}

describe('links of README.md, CHANGELOG.md and docs/ work on GitHub, on the npm page and in node_modules', () => {
  it('package.json names one repository for repository, homepage and bugs', () => {
    expect(REPOSITORY).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+$/);
    expect(manifest.homepage.startsWith(REPOSITORY)).toBe(true);
    expect(manifest.bugs.url.startsWith(REPOSITORY)).toBe(true);
  });

  it.each(DOCUMENTS)('every link of %s points at a heading, a shipped file, or a file of the repository that exists', (document) => {
    const links = markdownLinks(read(document));
    const problems = links.flatMap(({ target, line }) => {
      const problem = problemOf(target, document);
      return problem === undefined ? [] : [`${document}:${line}: ${target}: ${problem}`];
    });
    expect(problems).toEqual([]);
  });

  it.each(DOCS_PAGES)('every link of %s points at a heading or a file of the repository that exists', (page) => {
    const problems = markdownLinks(read(page)).flatMap(({ target, line }) => {
      const problem = pageLinkProblem(target, page);
      return problem === undefined ? [] : [`${page}:${line}: ${target}: ${problem}`];
    });
    expect(problems).toEqual([]);
  });

  it('the README links every page of docs/ and the changelog, relatively: the shipped copies, the installed version\'s', () => {
    const targets = markdownLinks(read('README.md')).map(({ target }) => target.split('#')[0]);
    for (const file of [...DOCS_PAGES, 'CHANGELOG.md']) expect(targets).toContain(file);
  });

  it('the check itself refuses what would break: a relative link to a file not shipped, a missing file, a missing heading', () => {
    expect(problemOf('bench/README.md', 'README.md')).toMatch(/breaks in node_modules/);
    expect(problemOf('docs/cli.md#no-such-heading', 'README.md')).toMatch(/no heading/);
    expect(problemOf('docs/cli.md#grant-coupon', 'README.md')).toBeUndefined();
    expect(pageLinkProblem('../bench/README.md', 'docs/cli.md')).toMatch(/breaks in node_modules/);
    expect(problemOf(`${REPOSITORY}/blob/${BRANCH}/docs/no-such-file.md`, 'README.md')).toMatch(/no file/);
    expect(problemOf(`${REPOSITORY}/blob/${BRANCH}/docs/cli.md#no-such-heading`, 'README.md')).toMatch(/no heading/);
    expect(problemOf('#no-such-section', 'README.md')).toMatch(/no heading/);
    expect(problemOf(`${REPOSITORY}/blob/${BRANCH}/docs/cli.md#grant-coupon`, 'README.md')).toBeUndefined();
    expect(pageLinkProblem('options.md#no-such-heading', 'docs/faq.md')).toMatch(/no heading/);
    expect(pageLinkProblem('no-such-page.md', 'docs/faq.md')).toMatch(/no file/);
    expect(pageLinkProblem('../README.md#usage', 'docs/faq.md')).toBeUndefined();
  });
});
