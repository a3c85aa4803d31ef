/**
 * Per-call overhead benchmark: CPU time and wall time of one `AdminClient.grantCoupon()` call
 * (built dist, pacing off) against one raw `fetch` POST of the same document, variables and
 * headers, parsed with `response.json()`. Both talk to the same trivial node:http server, run in a
 * child process so that `process.cpuUsage()` here counts the client only, answering every request
 * with one fixed payload. Batches alternate between the two after a warm-up; the figures are
 * medians over batches of the per-call mean.
 *
 * Run: npm run bench:overhead   (builds dist/ first)
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

type Sdk = typeof import('../src/index.js');

const WARMUP_CALLS = 2_000;
const BATCHES = 30;
const CALLS_PER_BATCH = 200;
const API_KEY = 'sk_live_benchmark_key_0123456789';
const COUPON_ID = 'c0000000-0000-4000-8000-000000000001';
const MEMBER = { email: 'ada@example.com' };

const GRANT = {
  id: 'g0000000-0000-4000-8000-000000000001',
  status: 'active',
  userName: 'Ada',
  userEmail: 'ada@example.com',
  grantedByName: null,
  grantedAt: 1_800_000_000,
  redeemedAt: null,
  revokedAt: null,
};
const PAYLOAD = JSON.stringify({ data: { createCouponGrant: { grant: GRANT, created: true, errors: [] } } });

/** The server: reads each body whole and answers the fixed payload (keep-alive, loopback). */
const SERVER = `
const payload = process.argv[1];
require('node:http').createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    response.end(payload);
  });
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`;

interface Cost {
  cpuMicros: number;
  wallMicros: number;
}

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', SERVER, PAYLOAD], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
  return { url: `http://127.0.0.1:${line.trim()}`, stop: () => child.kill() };
}

async function batch(call: () => Promise<unknown>, calls: number): Promise<Cost> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let index = 0; index < calls; index += 1) await call();
  const used = process.cpuUsage(cpu);
  return { cpuMicros: (used.user + used.system) / calls, wallMicros: ((performance.now() - started) * 1000) / calls };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const distEntry = join(import.meta.dirname, '../dist/index.js');
if (!existsSync(distEntry)) throw new Error('Failed to run the benchmark: dist/index.js is missing. Run npm run build first.');
const sdk = (await import(new URL('../dist/index.js', import.meta.url).href)) as Sdk;

const server = await startServer();
try {
  const admin = new sdk.AdminClient({ apiKey: API_KEY, baseUrl: server.url, limits: false });
  const document = sdk.OPERATIONS.createCouponGrant.document;
  const endpoint = `${server.url}/admin/graphql`;
  const headers = { 'content-type': 'application/json', accept: 'application/json', 'X-Service-API-Key': API_KEY, 'User-Agent': `school-admin-sdk/${sdk.SDK_VERSION}` };
  const viaSdk = () => admin.grantCoupon(COUPON_ID, MEMBER);
  const viaFetch = async () => {
    const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ query: document, variables: { couponId: COUPON_ID, ...MEMBER } }) });
    return response.json();
  };

  const sample = await viaSdk();
  if (sample.grant.id !== GRANT.id || sample.created !== true) throw new Error('Failed to run the benchmark: the SDK did not read the fixed payload.');
  await batch(viaSdk, WARMUP_CALLS);
  await batch(viaFetch, WARMUP_CALLS);

  const costs = { sdk: [] as Cost[], fetch: [] as Cost[] };
  for (let index = 0; index < BATCHES; index += 1) {
    costs.sdk.push(await batch(viaSdk, CALLS_PER_BATCH));
    costs.fetch.push(await batch(viaFetch, CALLS_PER_BATCH));
  }
  const cpu = { sdk: median(costs.sdk.map((c) => c.cpuMicros)), fetch: median(costs.fetch.map((c) => c.cpuMicros)) };
  const wall = { sdk: median(costs.sdk.map((c) => c.wallMicros)), fetch: median(costs.fetch.map((c) => c.wallMicros)) };
  const cell = (value: number) => `${value.toFixed(1).padStart(8)} µs`;
  console.log(`Per call, median of ${BATCHES} batches x ${CALLS_PER_BATCH} sequential calls (Node ${process.version}, loopback, pacing off)`);
  console.log(`                          CPU          wall`);
  console.log(`  AdminClient.grantCoupon ${cell(cpu.sdk)} ${cell(wall.sdk)}`);
  console.log(`  raw fetch POST          ${cell(cpu.fetch)} ${cell(wall.fetch)}`);
  console.log(`  SDK overhead            ${cell(cpu.sdk - cpu.fetch)} ${cell(wall.sdk - wall.fetch)}`);
} finally {
  server.stop();
}
