/**
 * What an app's bundle pays for the SDK: esbuild bundles a one-line app that imports from the
 * built package (dist/, through package.json `exports` and `imports`, as an installed copy
 * resolves), minified, ESM, module-first (`mainFields: ['module', 'main']`), for a worker target
 * (conditions `workerd`, `worker`, `browser`, as wrangler sets them) and, for comparison, for Node.
 * Prints the size of each bundle against its goal, and the largest contributors by package; exits 1
 * when a bundle misses its goal (issue 14: `import { AdminClient }` <= 120 kB, errors only <= 5 kB).
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
  /** The goal in bytes (1 kB = 1,000 bytes), when there is one. */
  goalBytes?: number;
  /** Packages whose modules are listed one by one under the table (what of them the app pays for). */
  detail?: string[];
}

const CLIENT_APP = "import { AdminClient } from 'school-admin-sdk'; globalThis.client = AdminClient;";
const CASES: BundleCase[] = [
  { name: 'import { AdminClient }', app: CLIENT_APP, target: 'worker', goalBytes: 120_000, detail: ['graphql'] },
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

interface Measured {
  bytes: number;
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
  return { bytes: result.outputFiles[0]?.contents.length ?? 0, owners: [...owners].sort((a, b) => b[1] - a[1]), files: files.sort((a, b) => b[1] - a[1]) };
}

console.log(`esbuild ${esbuild.version}, minified ESM, mainFields module-first; worker target = platform neutral + conditions workerd/worker/browser`);
console.log('| bundle | size | goal | largest parts |');
console.log('|---|---|---|---|');
const details: string[] = [];
for (const bundle of CASES) {
  const { bytes, owners, files } = await measure(bundle);
  const missed = bundle.goalBytes !== undefined && bytes > bundle.goalBytes;
  if (missed) process.exitCode = 1;
  const goal = bundle.goalBytes === undefined ? '' : `<= ${kB(bundle.goalBytes)}: ${missed ? `**not met** (+${kB(bytes - bundle.goalBytes)})` : 'met'}`;
  const parts = owners
    .filter(([, size]) => size >= 500)
    .slice(0, 6)
    .map(([name, size]) => `${name} ${kB(size)}`)
    .join(', ');
  console.log(`| ${bundle.name} | ${kB(bytes)} (${bytes.toLocaleString('en-US')} B) | ${goal} | ${parts} |`);
  for (const name of bundle.detail ?? []) {
    const modules = files.filter(([input, size]) => owner(input) === name && size >= 300);
    details.push(`${name} in ${bundle.name}: ${modules.map(([input, size]) => `${input.replace(/^.*node_modules\/[^/]+\//, '')} ${kB(size)}`).join(', ')}`);
  }
}
for (const line of details) console.log(line);
