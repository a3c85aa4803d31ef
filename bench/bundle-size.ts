/**
 * What an app's bundle pays for the SDK: esbuild bundles a one-line app that imports from the
 * built package (dist/, through package.json `exports` and `imports`, as an installed copy
 * resolves), minified, ESM, module-first (`mainFields: ['module', 'main']`), for a worker target
 * (conditions `workerd`, `worker`, `browser`, as wrangler sets them) and, for comparison, for Node.
 * Prints the size of each bundle against its goal, and the largest contributors by package.
 *
 * Run: npm run bench:bundle (builds dist/ first)
 */
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

interface BundleCase {
  name: string;
  app: string;
  target: 'worker' | 'node';
  /** Left out of the bundle, to show what remains without it. */
  external?: string[];
  /** The goal in bytes (1 kB = 1,000 bytes), when there is one. */
  goalBytes?: number;
}

const CLIENT_APP = "import { AdminClient } from 'school-admin-sdk'; globalThis.client = AdminClient;";
const CASES: BundleCase[] = [
  { name: 'import { AdminClient }', app: CLIENT_APP, target: 'worker', goalBytes: 120_000 },
  // The issue-13 queue replaces bottleneck in the main entry; this is the figure once it has left.
  { name: 'import { AdminClient }, bottleneck left out', app: CLIENT_APP, target: 'worker', external: ['bottleneck'], goalBytes: 120_000 },
  { name: 'import { CodedError, hasCode }', app: "import { CodedError, hasCode } from 'school-admin-sdk'; globalThis.errors = [CodedError, hasCode];", target: 'worker', goalBytes: 5_000 },
  { name: 'import { AdminClient } (Node target: the file journal included)', app: CLIENT_APP, target: 'node' },
];

const kB = (bytes: number): string => `${(bytes / 1000).toFixed(1)} kB`;

/** `node_modules/graphql/language/parser.mjs` -> `graphql`; `dist/chunk-X.js` -> `school-admin-sdk`. */
function owner(input: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (inPackage?.[1] !== undefined) return inPackage[1];
  return input.startsWith('dist/') ? 'school-admin-sdk' : input;
}

async function measure(bundle: BundleCase): Promise<{ bytes: number; owners: Array<[string, number]> }> {
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
    external: bundle.external ?? [],
    logLevel: 'silent',
  });
  const [output] = Object.values(result.metafile.outputs);
  const owners = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) owners.set(owner(input), (owners.get(owner(input)) ?? 0) + bytesInOutput);
  return { bytes: result.outputFiles[0]?.contents.length ?? 0, owners: [...owners].sort((a, b) => b[1] - a[1]) };
}

console.log(`esbuild ${esbuild.version}, minified ESM, mainFields module-first; worker target = platform neutral + conditions workerd/worker/browser`);
console.log('| bundle | size | goal | largest parts |');
console.log('|---|---|---|---|');
for (const bundle of CASES) {
  const { bytes, owners } = await measure(bundle);
  const goal = bundle.goalBytes === undefined ? '' : `<= ${kB(bundle.goalBytes)}: ${bytes <= bundle.goalBytes ? 'met' : `**not met** (+${kB(bytes - bundle.goalBytes)})`}`;
  const parts = owners
    .filter(([, size]) => size >= 500)
    .slice(0, 6)
    .map(([name, size]) => `${name} ${kB(size)}`)
    .join(', ');
  console.log(`| ${bundle.name} | ${kB(bytes)} (${bytes.toLocaleString('en-US')} B) | ${goal} | ${parts} |`);
}
