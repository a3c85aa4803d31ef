/**
 * What the telemetry seam costs a call when no instrumentation is registered: the client of this
 * checkout against the client as it was before issue 29 (commit c07ece8: no slot, no `ran`), side
 * by side in one process, batches alternating (and their order swapping each round). The grants go
 * to an in-process fetch that answers at once, pacing off, so that the figures are the client's own
 * CPU, without a network's or a server's noise. The old `src/` is extracted with `git archive` under
 * node_modules/.cache (its imports resolve to this checkout's node_modules) and, like this
 * checkout's, loaded by tsx.
 *
 * Run: npm run bench:seam
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

type Sdk = typeof import('../src/index.js');

const BEFORE = 'c07ece8';
const ROUNDS = 15;
const CALLS_PER_BATCH = 2_000;
const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ANSWER = JSON.stringify({
  data: { createCouponGrant: { errors: null, created: true, grant: { id: 'g-1', status: 'granted', userName: 'M', userEmail: 'm@example.com', grantedByName: null, grantedAt: 1_800_000_000, redeemedAt: null, revokedAt: null } } },
});
const instant: typeof fetch = async () => new Response(ANSWER, { status: 200, headers: { 'content-type': 'application/json' } });

/** The folder holding `src/` as it was at `commit` (extracted on first use). */
function sourcesAt(commit: string): string {
  const root = join(PROJECT_ROOT, 'node_modules/.cache/school-admin-sdk-bench', commit);
  if (!existsSync(join(root, 'src/index.ts'))) {
    mkdirSync(root, { recursive: true });
    execFileSync('tar', ['-x', '-C', root], { input: execFileSync('git', ['archive', commit, 'src'], { cwd: PROJECT_ROOT, maxBuffer: 64 << 20 }) });
  }
  return root;
}

async function clientOf(root: string): Promise<InstanceType<Sdk['AdminClient']>> {
  const sdk = (await import(pathToFileURL(join(root, 'src/index.ts')).href)) as Sdk;
  return new sdk.AdminClient({ apiKey: 'sk_live_bench_seam_0123456789', baseUrl: 'https://school.example', fetch: instant, limits: false });
}

async function batch(admin: InstanceType<Sdk['AdminClient']>, calls: number): Promise<number> {
  const cpu = process.cpuUsage();
  for (let index = 0; index < calls; index += 1) await admin.grantCoupon('c-1', { email: 'ada@example.com' });
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / calls;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const variants = [
  { name: `before (${BEFORE})`, admin: await clientOf(sourcesAt(BEFORE)), costs: [] as number[] },
  { name: 'this checkout', admin: await clientOf(PROJECT_ROOT), costs: [] as number[] },
];
for (const variant of variants) await batch(variant.admin, 3_000);
for (let round = 0; round < ROUNDS; round += 1) {
  for (const variant of round % 2 === 0 ? variants : [...variants].reverse()) variant.costs.push(await batch(variant.admin, CALLS_PER_BATCH));
}
const [before, now] = variants.map((variant) => median(variant.costs)) as [number, number];
console.log(`CPU per grantCoupon call, median of ${ROUNDS} batches x ${CALLS_PER_BATCH} (Node ${process.version}, in-process fetch, pacing off, no instrumentation)`);
console.log(`  ${variants[0]?.name}: ${before.toFixed(1)} µs`);
console.log(`  ${variants[1]?.name}: ${now.toFixed(1)} µs`);
console.log(`  difference: ${(now - before).toFixed(1)} µs`);
