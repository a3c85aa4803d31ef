/**
 * Cold import benchmark: how long a fresh Node process takes to import the SDK's main entry (the
 * built ESM dist/index.js) compared with importing graphql alone, which the SDK loads (its lexer
 * reads request() documents; it has no GraphQL client library since issue 14). Each sample is a new `node` process; A and B alternate so that drift hits both; the first
 * pair only warms the file cache. Prints the medians of 20 and their ratio, and the same for the
 * CommonJS build with require().
 *
 * Run: npm run bench:import   (builds dist/ first)
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SAMPLES = 20;
const root = join(import.meta.dirname, '..');

/** What one fresh process measured, in milliseconds. */
interface Sample {
  /** Around `await import(...)` (or `require(...)`) only. */
  importMs: number;
  /** CPU time of the import (user + system, every thread): less sensitive than wall time to other load on the machine. */
  importCpuMs: number;
  /** The whole process, from spawn to exit (Node start-up included). */
  processMs: number;
}

/** The child: times the import itself with the process's own clock. */
const REPORT = 'const c = process.cpuUsage(cpu); process.stdout.write(JSON.stringify([performance.now() - t, (c.user + c.system) / 1000]));';
const CHILD = {
  esm: `const t = performance.now(); const cpu = process.cpuUsage(); await import(process.argv[1]); ${REPORT}`,
  cjs: `const t = performance.now(); const cpu = process.cpuUsage(); require(process.argv[1]); ${REPORT}`,
} as const;

async function sample(format: keyof typeof CHILD, specifier: string): Promise<Sample> {
  const args = format === 'esm' ? ['--input-type=module', '-e', CHILD.esm, specifier] : ['--input-type=commonjs', '-e', CHILD.cjs, specifier];
  const started = performance.now();
  const { stdout } = await run(process.execPath, args, { cwd: root });
  const [importMs, importCpuMs] = JSON.parse(stdout) as [number, number];
  return { importMs, importCpuMs, processMs: performance.now() - started };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function compare(format: keyof typeof CHILD, sdk: string, baseline: string): Promise<void> {
  await sample(format, sdk);
  await sample(format, baseline);
  const sdkSamples: Sample[] = [];
  const baselineSamples: Sample[] = [];
  for (let index = 0; index < SAMPLES; index += 1) {
    sdkSamples.push(await sample(format, sdk));
    baselineSamples.push(await sample(format, baseline));
  }
  const ms = (samples: Sample[], pick: (s: Sample) => number) => median(samples.map(pick)).toFixed(1).padStart(6);
  const row = (label: string, samples: Sample[]) =>
    `  ${label.padEnd(34)} import ${ms(samples, (s) => s.importMs)} ms (CPU ${ms(samples, (s) => s.importCpuMs)} ms)   process ${ms(samples, (s) => s.processMs)} ms`;
  const ratio = (pick: (s: Sample) => number) => (median(sdkSamples.map(pick)) / median(baselineSamples.map(pick))).toFixed(3);
  console.log(`${format.toUpperCase()} (median of ${SAMPLES} fresh processes, Node ${process.version})`);
  console.log(row(`school-admin-sdk (dist/index.${format === 'esm' ? 'js' : 'cjs'})`, sdkSamples));
  console.log(row('graphql alone', baselineSamples));
  console.log(`  ratio sdk / graphql: import ${ratio((s) => s.importMs)} (CPU ${ratio((s) => s.importCpuMs)})   process ${ratio((s) => s.processMs)}`);
}

for (const file of ['dist/index.js', 'dist/index.cjs']) {
  if (!existsSync(join(root, file))) throw new Error(`Failed to run the benchmark: ${file} is missing. Run npm run build first.`);
}
await compare('esm', new URL('../dist/index.js', import.meta.url).href, 'graphql');
await compare('cjs', join(root, 'dist/index.cjs'), 'graphql');
