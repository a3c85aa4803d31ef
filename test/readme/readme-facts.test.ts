import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { DEFAULTS, ERROR_CODES, OPERATIONS, SDK_VERSION } from '../../src/index.js';
import { DEMO_API_KEY } from '../../src/testing/index.js';
import { fencedBlocks } from './support/markdown.js';
import { PROJECT_ROOT } from './support/snippet-workspace.js';
import { TypeMembers } from './support/type-members.js';

/*
 * What the README and the reference pages it links (docs/options.md, docs/events.md,
 * docs/errors.md) state that the code also knows: their tables, the defaults, the options and
 * events, the scripts and commands they tell people to run, the requirements. A change on either
 * side without the other fails here.
 */

const read = (file: string): string => readFileSync(join(PROJECT_ROOT, file), 'utf8');
const README = read('README.md');
const ERRORS_PAGE = read('docs/errors.md');
const OPTIONS_PAGE = read('docs/options.md');
const EVENTS_PAGE = read('docs/events.md');
const CHANGELOG = readFileSync(join(PROJECT_ROOT, 'CHANGELOG.md'), 'utf8');
const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  scripts: Record<string, string>;
  peerDependencies: Record<string, string>;
  dependencies: Record<string, string>;
};

/** The rows of the Markdown table of `markdown` that follows `heading` (cells trimmed, header and rule left out). */
function tableAfter(heading: string, markdown = README): string[][] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const table: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (!line.startsWith('|')) {
      if (table.length > 0) break;
      continue;
    }
    // `\|` inside a cell is a pipe of the text, not a cell boundary.
    table.push(line.replace(/\\\|/g, '\u0000').split('|').slice(1, -1).map((cell) => cell.replace(/\u0000/g, '|').trim()));
  }
  return table.slice(2);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `30_000` for 30000: how the README writes numbers in code. */
function numberLiteral(value: number): string {
  return value < 1_000 ? String(value) : String(value).replace(/\B(?=(\d{3})+$)/g, '_');
}

describe('the README stays a front door', () => {
  it('at most about 450 lines: every option, event, error code and FAQ entry is on a docs page it links', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(460);
    for (const heading of ['## Client options', '## FAQ', '### Error codes', '## Events and logging']) expect(README).not.toContain(`\n${heading}\n`);
  });

  it('keeps the order a newcomer needs: install, usage, errors, pacing, testing, the command, versioning, contributing', () => {
    const order = ['## Install', '## Usage', '## Errors', '## Pacing in short', '## Testing your integration', '## The `school-admin` command', '## Versioning and stability', '## Contributing'];
    const at = order.map((heading) => README.indexOf(`\n${heading}\n`));
    expect(at.every((index) => index > 0), order.filter((_, index) => (at[index] ?? -1) < 0).join(', ')).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it('"the testing section of the README shows how to make a 429 then a success, with msw and with the simulator" (issue 30), in snippets that run', () => {
    const testing = README.slice(README.indexOf('\n## Testing your integration\n'), README.indexOf('\n## The `school-admin` command\n'));
    const blocks = fencedBlocks(testing);
    const withMsw = blocks.find((block) => block.code.includes('status: 429') && block.code.includes('server.use('));
    expect(withMsw?.marker?.kind).toBe('vitest');
    const withSimulator = blocks.find((block) => /createSimulator\(\{ limits: \{ mutations: /u.test(block.code) && block.code.includes("on('rateLimited'"));
    expect(withSimulator?.marker?.kind).toBe('run');
    expect(withSimulator?.marker?.attributes).toEqual(expect.arrayContaining([['expect', '429: every mutation waits'], ['expect', 'created: true, true']]));
  });

  it('"the CSV member reader the CLI uses is exported for scripts, or the README says why not" (issue 30): it says why not, and the main entry indeed does not export it', () => {
    const bulk = README.slice(README.indexOf('\n### Bulk grants\n'), README.indexOf('\n### Slots from local time\n'));
    expect(bulk.replace(/\s+/gu, ' ')).toContain("The CLI's CSV reader is not exported: it wraps csv-parse, which only the bin bundles");
    expect(readFileSync(join(PROJECT_ROOT, 'src/index.ts'), 'utf8')).not.toMatch(/readMemberCsv|member-csv/u);
    expect(Object.keys(manifest.dependencies)).not.toContain('csv-parse');
  });

  it('its scheduling section shows localTimeToUnix in a snippet that runs', () => {
    const scheduling = README.slice(README.indexOf('\n### Slots from local time\n'), README.indexOf('\n### Deno, Bun and Cloudflare Workers\n'));
    const block = fencedBlocks(scheduling).find((candidate) => candidate.code.includes('localTimeToUnix('));
    expect(block?.marker?.kind).toBe('run');
  });
});

describe('the tables say what the code does', () => {
  it('the retry table of docs/errors.md marks as retried exactly the methods whose operation OPERATIONS calls idempotent', () => {
    const operationOf = new Map(tableAfter('### Methods').map(([method = '', operation = '']) => [method.replace(/^`|\(.*$/g, ''), operation]));
    const rows = tableAfter('## Retry safety per method', ERRORS_PAGE).filter(([method = '']) => method !== '`request()`');
    expect(rows).toHaveLength(Object.keys(OPERATIONS).length);
    for (const [method = '', verdict = ''] of rows) {
      const operation = operationOf.get(method.replace(/`/g, '')) as keyof typeof OPERATIONS;
      expect(OPERATIONS[operation], method).toBeDefined();
      expect([method, verdict === '**retried**' ? 'idempotent' : 'unsafe']).toEqual([method, OPERATIONS[operation].retry]);
    }
  });

  it('the error-code table of docs/errors.md lists exactly the documented codes, in ERROR_CODES order', () => {
    expect(tableAfter('## Error codes', ERRORS_PAGE).map(([code]) => code)).toEqual(Object.keys(ERROR_CODES));
  });

  it('the client options snippet of docs/options.md names every option of AdminClientOptions and PacingOptions', () => {
    const code = fencedBlocks(OPTIONS_PAGE).find((candidate) => candidate.marker?.attributes.some(([name, value]) => name === 'id' && value === 'defaults'))?.code ?? '';
    const types = new TypeMembers('src/client/options/options.ts');
    const named = new Set([...code.matchAll(/^\s+(\w+):/gmu)].map((match) => match[1] as string));
    expect([...types.of('AdminClientOptions'), ...types.of('PacingOptions')].filter((option) => !named.has(option))).toEqual([]);
  });

  it('docs/events.md lists every event of ClientEventMap, each with every field of its type', () => {
    const types = new TypeMembers('src/client/events/client-events.ts');
    const common = types.of('CallEvent');
    const rows = tableAfter('## Every event', EVENTS_PAGE);
    expect(rows.map(([event = '']) => event.replace(/`/g, ''))).toEqual(types.of('ClientEventMap'));
    for (const [event = '', , fields = ''] of rows) {
      const name = event.replace(/`/g, '');
      const named = new Set([...fields.matchAll(/`(\w+)`/g)].map((match) => match[1] as string));
      expect([name, types.ofProperty('ClientEventMap', name).filter((field) => !common.includes(field) && !named.has(field))]).toEqual([name, []]);
    }
  });

  it('the client options snippet of docs/options.md shows every default of DEFAULTS as it is', () => {
    const block = fencedBlocks(OPTIONS_PAGE).find((candidate) => candidate.marker?.attributes.some(([name, value]) => name === 'id' && value === 'defaults'));
    const code = block?.code ?? '';
    const budget = (name: 'mutations' | 'queries') => `${name}: { limit: ${DEFAULTS[name].limit}, windowMs: ${numberLiteral(DEFAULTS[name].windowMs)} }`;
    const expected = [
      budget('mutations'),
      budget('queries'),
      `leaseMs: ${numberLiteral(DEFAULTS.timeoutMs + DEFAULTS.leaseMarginMs)}, // default: timeoutMs + ${numberLiteral(DEFAULTS.leaseMarginMs)}`,
      `authErrorCodes: [${DEFAULTS.authErrorCodes.map((code) => `'${code}'`).join(', ')}]`,
      `requestIdHeaders: [${DEFAULTS.requestIdHeaders.map((header) => `'${header}'`).join(', ')}]`,
      `logLevel: '${DEFAULTS.logLevel}'`,
      `telemetry: ${DEFAULTS.telemetry},`,
      `interactiveReserve: undefined, // default: ${DEFAULTS.interactiveReserveShare * 100}% of the limit in force, at least 1`,
      ...(['timeoutMs', 'maxRetries', 'waitingThresholdMs', 'retryBaseDelayMs', 'maxRetryDelayMs', 'maxRateLimitWaitMs', 'maxResponseBytes', 'bulkChunkSize'] as const).map(
        (name) => `${name}: ${numberLiteral(DEFAULTS[name])},`,
      ),
    ];
    // Every default is accounted for above (leaseMarginMs through leaseMs, interactiveReserveShare through interactiveReserve);
    // bulkRampShare is no option (docs/architecture.md, "Pacing").
    expect(Object.keys(DEFAULTS).sort()).toEqual(
      ['timeoutMs', 'maxRetries', 'mutations', 'queries', 'leaseMarginMs', 'interactiveReserveShare', 'bulkRampShare', 'waitingThresholdMs', 'retryBaseDelayMs', 'maxRetryDelayMs', 'maxRateLimitWaitMs', 'maxResponseBytes', 'bulkChunkSize', 'authErrorCodes', 'requestIdHeaders', 'logLevel', 'telemetry'].sort(),
    );
    expect(expected.filter((text) => !code.includes(text))).toEqual([]);
  });
});

describe('README commands exist', () => {
  it('every `npm run` script and `bench:` script it names is in package.json', () => {
    const named = new Set([...README.matchAll(/npm run ([a-z][\w:-]*)/g), ...README.matchAll(/`(bench:[\w-]+)`/g)].map((match) => match[1] as string));
    expect([...named].filter((script) => manifest.scripts[script] === undefined)).toEqual([]);
    expect([...named]).toEqual(expect.arrayContaining(['demo', 'cli', 'test:quick', 'test:runtimes', 'docs', 'build', 'codegen']));
  });

  it('every school-admin command line of its sh blocks names a real command and real options', () => {
    const program = buildProgram();
    const commands = new Map<string, Command>(program.commands.map((command) => [command.name(), command]));
    const lines = fencedBlocks(README)
      .filter((block) => block.lang === 'sh')
      .flatMap((block) => block.code.split('\n'))
      .map((line) => /(?:npx school-admin|npm run cli --|node dist\/cli\/main\.js) ([a-z-]+)(.*)$/.exec(line.replace(/#.*$/, '')))
      .filter((match): match is RegExpExecArray => match !== null);
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const problems = lines.flatMap(([line, name = '', rest = '']) => {
      const command = commands.get(name);
      if (command === undefined) return [`${line}: no command ${name}`];
      const known = new Set(command.options.map((option) => option.long));
      return [...rest.matchAll(/(--[a-z][a-z-]*)/g)].map((flag) => flag[1] as string).filter((flag) => !known.has(flag)).map((flag) => `${line}: ${name} has no ${flag}`);
    });
    expect(problems).toEqual([]);
  });

  it('the mock server lines it shows are what `school-admin mock-server` serves and prints by default', () => {
    const mockServer = buildProgram().commands.find((command) => command.name() === 'mock-server') as Command;
    const port = mockServer.options.find((option) => option.long === '--port')?.defaultValue as string;
    expect(README).toContain(`export ADMIN_API_URL=http://127.0.0.1:${port} ADMIN_API_KEY=${DEMO_API_KEY}`);
    expect(README).toContain(`serves http://127.0.0.1:${port}`);
  });
});

describe('README requirements and the CHANGELOG match package.json', () => {
  it('names the Node.js floor of engines and every optional peer range', () => {
    expect(manifest.engines.node).toBe('>=20.19');
    expect(README).toContain('**Node.js 20.19 or later**');
    // `^2.2.3 || ^3.0.0` reads `^2.2.3 || ^3` in the README.
    const short = (range: string) => range.split('||').map((part) => part.trim().replace(/(\.0)+$/, '')).join(' || ');
    // Each peer is named as a link, then its range: "[msw](https://mswjs.io) `^2.2.3 || ^3`".
    for (const [name, range] of Object.entries(manifest.peerDependencies)) expect(README).toMatch(new RegExp(`\\[${name}\\]\\([^)]+\\) \`${escapeRegExp(short(range))}\``));
    expect(README).toContain(`graphql (\`${short(manifest.dependencies['graphql'] as string)}\`)`);
  });

  it('the newest CHANGELOG release is this version, dated, opening with its breaking changes; SDK_VERSION agrees', () => {
    const all = [...CHANGELOG.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)];
    // Changes not released yet collect under an undated `## [Unreleased]` above the releases.
    const unreleased = all.filter((entry) => entry[1] === 'Unreleased');
    expect(unreleased.map((entry) => [all.indexOf(entry), entry[2]])).toEqual(unreleased.length === 0 ? [] : [[0, undefined]]);
    const entries = all.filter((entry) => entry[1] !== 'Unreleased');
    expect(entries[0]?.[1]).toBe(manifest.version);
    expect(entries.every((entry) => entry[2] !== undefined)).toBe(true);
    const newest = CHANGELOG.slice(entries[0]?.index, entries[1]?.index);
    expect(newest.split('\n').find((line) => line.startsWith('### '))).toBe('### Breaking changes');
    expect(SDK_VERSION).toBe(manifest.version);
  });
});
