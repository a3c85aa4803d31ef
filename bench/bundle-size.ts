/**
 * What an app's bundle pays for the SDK: esbuild bundles a one-line app that imports from the
 * built package (dist/, through package.json `exports` and `imports`, as an installed copy
 * resolves), minified, ESM, module-first (`mainFields: ['module', 'main']`), for a worker target
 * (conditions `workerd`, `worker`, `browser`, as wrangler sets them) and, for comparison, for Node.
 * Prints the size of each bundle, minified and gzipped (node:zlib, level 9: what a CDN or a
 * worker upload compresses, and what an app's users download), against its goal, and the largest
 * contributors by package (minified bytes: esbuild's metafile counts those); exits 1 when a bundle
 * misses its goal. Goals are counted gzipped (issue 19: `import { AdminClient }` <= 40 kB gzip,
 * errors only <= 2 kB gzip).
 *
 * Run: npm run bench:bundle (builds dist/ first)
 */
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

interface BundleCase {
  name: string;
  app: string;
  target: 'worker' | 'node';
  /** The goal in gzipped bytes (1 kB = 1,000 bytes), when there is one. */
  gzipGoalBytes?: number;
  /** Packages whose modules are listed one by one under the table (what of them the app pays for). */
  detail?: string[];
}

const CLIENT_APP = "import { AdminClient } from 'school-admin-sdk'; globalThis.client = AdminClient;";
const CASES: BundleCase[] = [
  { name: 'import { AdminClient }', app: CLIENT_APP, target: 'worker', gzipGoalBytes: 40_000, detail: ['graphql'] },
  { name: 'import { CodedError, hasCode }', app: "import { CodedError, hasCode } from 'school-admin-sdk'; globalThis.errors = [CodedError, hasCode];", target: 'worker', gzipGoalBytes: 2_000 },
  { name: 'import { AdminClient } (Node target: the file journal included)', app: CLIENT_APP, target: 'node' },
];

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

/** `node_modules/graphql/language/parser.mjs` -> `graphql`; `dist/chunk-X.js` -> `school-admin-sdk`. */
function owner(input: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (inPackage?.[1] !== undefined) return inPackage[1];
  return input.startsWith('dist/') ? 'school-admin-sdk' : input;
}

interface Measured {
  /** Minified bytes. */
  bytes: number;
  /** The minified bundle gzipped at level 9. */
  gzipBytes: number;
  /** Bytes by package (the SDK's own dist as `school-admin-sdk`), largest first. */
  owners: Array<[string, number]>;
  /** Bytes by input file, largest first. */
  files: Array<[string, number]>;
}

async function measure(bundle: BundleCase): Promise<Measured> {
  const result = await esbuild.build({
    stdin: { contents: bundle.app, resolveDir: projectRoot, loader: 'js' },
    absWorkingDir: projectRoot,
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
    metafile: true,
    mainFields: ['module', 'main'],
    ...(bundle.target === 'worker' ? { platform: 'neutral', conditions: ['workerd', 'worker', 'browser'] } : { platform: 'node' }),
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  const owners = new Map<string, number>();
  const files = Object.entries(output?.inputs ?? {}).map(([input, { bytesInOutput }]): [string, number] => [input, bytesInOutput]);
  for (const [input, bytes] of files) owners.set(owner(input), (owners.get(owner(input)) ?? 0) + bytes);
  const contents = result.outputFiles[0]?.contents ?? new Uint8Array();
  return { bytes: contents.length, gzipBytes: gzipSync(contents, { level: 9 }).length, owners: [...owners].sort((a, b) => b[1] - a[1]), files: files.sort((a, b) => b[1] - a[1]) };
}

console.log(`esbuild ${esbuild.version}, minified ESM, mainFields module-first; worker target = platform neutral + conditions workerd/worker/browser`);
console.log('| bundle | minified | gzipped (level 9) | goal (gzipped) | largest parts (minified) |');
console.log('|---|---|---|---|---|');
const details: string[] = [];
for (const bundle of CASES) {
  const { bytes, gzipBytes, owners, files } = await measure(bundle);
  const goalBytes = bundle.gzipGoalBytes;
  const missed = goalBytes !== undefined && gzipBytes > goalBytes;
  if (missed) process.exitCode = 1;
  const goal = goalBytes === undefined ? '' : `<= ${kB(goalBytes)}: ${missed ? `**not met** (+${kB(gzipBytes - goalBytes)})` : 'met'}`;
  const parts = owners
    .filter(([, size]) => size >= 500)
    .slice(0, 6)
    .map(([name, size]) => `${name} ${kB(size)}`)
    .join(', ');
  console.log(`| ${bundle.name} | ${kB(bytes)} (${bytes.toLocaleString('en-US')} B) | ${kB(gzipBytes)} (${gzipBytes.toLocaleString('en-US')} B) | ${goal} | ${parts} |`);
  for (const name of bundle.detail ?? []) {
    const modules = files.filter(([input, size]) => owner(input) === name && size >= 300);
    details.push(`${name} in ${bundle.name}: ${modules.map(([input, size]) => `${input.replace(/^.*node_modules\/[^/]+\//, '')} ${kB(size)}`).join(', ')}`);
  }
}
for (const line of details) console.log(line);
