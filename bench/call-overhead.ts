/**
 * Per-call overhead benchmark: CPU time and wall time of one `AdminClient.grantCoupon()` call
 * (built dist, pacing off) against one raw `fetch` POST of the same document, variables and
 * headers, parsed with `response.json()`. Both talk to the same trivial node:http server, run in a
 * child process so that `process.cpuUsage()` here counts the client only, answering every request
 * with one fixed payload. Batches alternate between the two after a warm-up; the figures are
 * medians over batches of the per-call mean.
 *
 * With `--otel`, two more variants alternate with them: the same call in a process with an
 * OpenTelemetry set-up but the SDK's instrumentation disabled (what the app pays for OpenTelemetry
 * itself: the AsyncLocalStorage context manager), and with `school-admin-sdk/otel` enabled (a span
 * per call and per attempt, exported in batches; metrics recorded). See support/otel-variants.ts.
 *
 * Run: npm run bench:overhead   (builds dist/ first)
 *      npm run bench:overhead -- --otel
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { otelVariants, type OtelState } from './support/otel-variants.js';

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
  const otel = process.argv.includes('--otel') ? await otelVariants(new URL('../dist/otel/index.js', import.meta.url)) : undefined;
  /** Each variant: how it is called, and the OpenTelemetry state its batches run in. */
  const variants: Array<{ name: string; call: () => Promise<unknown>; state: OtelState }> = [
    { name: 'AdminClient.grantCoupon', call: viaSdk, state: 'none' },
    { name: 'raw fetch POST', call: viaFetch, state: 'none' },
    ...(otel === undefined
      ? []
      : [
          { name: '  + OpenTelemetry set up, not the SDK\'s', call: viaSdk, state: 'sdk-only' as const },
          { name: '  + school-admin-sdk/otel enabled', call: viaSdk, state: 'instrumented' as const },
        ]),
  ];
  for (const variant of variants) {
    otel?.set(variant.state);
    await batch(variant.call, WARMUP_CALLS);
  }
  const costs = variants.map(() => [] as Cost[]);
  for (let index = 0; index < BATCHES; index += 1) {
    for (const [at, variant] of variants.entries()) {
      otel?.set(variant.state);
      costs[at]?.push(await batch(variant.call, CALLS_PER_BATCH));
    }
  }
  await otel?.stop();
  const cpu = costs.map((cost) => median(cost.map((c) => c.cpuMicros)));
  const wall = costs.map((cost) => median(cost.map((c) => c.wallMicros)));
  const cell = (value: number) => `${value.toFixed(1).padStart(8)} µs`;
  const row = (name: string, cpuMicros: number, wallMicros: number) => console.log(`  ${name.padEnd(40)} ${cell(cpuMicros)} ${cell(wallMicros)}`);
  console.log(`Per call, median of ${BATCHES} batches x ${CALLS_PER_BATCH} sequential calls (Node ${process.version}, loopback, pacing off)`);
  console.log(`  ${''.padEnd(40)}      CPU          wall`);
  variants.forEach((variant, at) => row(variant.name, cpu[at] as number, wall[at] as number));
  const [sdkCpu = 0, fetchCpu = 0, otelCpu = 0, instrumentedCpu = 0] = cpu;
  const [sdkWall = 0, fetchWall = 0, otelWall = 0, instrumentedWall = 0] = wall;
  row('SDK overhead', sdkCpu - fetchCpu, sdkWall - fetchWall);
  if (otel !== undefined) {
    row('OpenTelemetry set-up (not the SDK\'s)', otelCpu - sdkCpu, otelWall - sdkWall);
    row('school-admin-sdk/otel, per call', instrumentedCpu - otelCpu, instrumentedWall - otelWall);
  }
} finally {
  server.stop();
}
