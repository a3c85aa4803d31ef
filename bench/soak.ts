/**
 * Soak benchmark (issue 7, point 5): 10,000 mixed SDK calls from one AdminClient against the
 * simulator in its own process over loopback, with a scaled window (300 requests per 2 s per type
 * by default) that client and server agree on. Prints calls per method, 429s seen by the client and
 * answered by the server, failures (provoked vs unexplained), duration, and RSS/heap samples every
 * 1,000 calls with the end/after-warm-up ratio. Exits 1 when the targets are missed: any 429, any
 * unexplained failure, or memory growing by more than 50 % after warm-up.
 *
 * Run: npm run bench:soak [-- <operations> <lanes> <limit> <windowMs>]
 */
import { AdminClient, MemoryPermitStore } from '../src/index.js';
import { DEMO_API_KEY } from '../src/testing/index.js';
import { startRemoteSimulator } from './support/remote-simulator.js';
import { MemorySampler } from './soak/memory-sampler.js';
import { runWorkload } from './soak/workload.js';

const SAMPLE_EVERY = 1_000;
/**
 * The default window binds: the simulator answers about 200 mutations/s on a 2-core machine, so a
 * budget of 300 per 2 s keeps the limiter (not the server) the bottleneck for the whole run.
 */
const [operations = 10_000, lanes = 32, LIMIT = 300, WINDOW_MS = 2_000] = process.argv.slice(2).map(Number);

const server = await startRemoteSimulator('bench/soak/server-process.ts', [String(LIMIT), String(WINDOW_MS)]);
const budget = { limit: LIMIT, windowMs: WINDOW_MS };
const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url, timeoutMs: 10_000, limits: { mutations: budget, queries: budget, store: new MemoryPermitStore() } });
let clientRateLimited = 0;
let retries = 0;
admin.on('rateLimited', () => (clientRateLimited += 1));
admin.on('retry', () => (retries += 1));

console.log(`Soak: ${operations} mixed calls, ${lanes} lanes, ${LIMIT} requests per ${WINDOW_MS / 1000} s window, simulator in a child process over loopback (node ${process.version}${typeof globalThis.gc === 'function' ? ', gc before each sample' : ''})\n`);
const memory = new MemorySampler();
memory.sample(0);
const started = performance.now();
const cpuStarted = process.cpuUsage();
const report = await runWorkload(admin, {
  operations,
  lanes,
  onProgress: (finished) => {
    if (finished % SAMPLE_EVERY === 0) memory.sample(finished);
  },
});
const durationMs = performance.now() - started;
const cpu = process.cpuUsage(cpuStarted);
const clientCpuMs = (cpu.user + cpu.system) / 1000;
memory.sample(operations);
const stats = await server.stats();
await server.close();

const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, count) => sum + count, 0);
const table = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `  ${name.padEnd(40)} ${String(count).padStart(6)}`)
    .join('\n') || '  (none)';

console.log(`Calls per method (${total(report.calls)} in all):\n${table(report.calls)}\n`);
console.log(`429s: client saw ${clientRateLimited}, server answered ${stats.rateLimited.mutations + stats.rateLimited.queries}; transient retries: ${retries}`);
console.log(`Requests that reached the server: ${stats.requests.mutations} mutations, ${stats.requests.queries} queries`);
console.log(`Provoked failures (expected):\n${table(report.expectedFailures)}`);
console.log(`Unexplained failures:\n${table(report.unexplainedFailures)}`);
for (const sample of report.samples) console.log(`  e.g. ${sample}`);
const seconds = durationMs / 1000;
console.log(`\nDuration ${seconds.toFixed(1)} s, ${(operations / seconds).toFixed(0)} calls/s (the window allows ${(LIMIT / (WINDOW_MS / 1000)).toFixed(0)} requests/s per type); client process CPU (all threads) ${(clientCpuMs / 1000).toFixed(1)} s\n`);
console.log(memory.format());

const memoryRatio = memory.endToWarmUp();
const missed = [
  clientRateLimited + stats.rateLimited.mutations + stats.rateLimited.queries > 0 ? '429s' : undefined,
  total(report.unexplainedFailures) > 0 ? 'unexplained failures' : undefined,
  memoryRatio.rss > 1.5 || memoryRatio.heapUsed > 1.5 ? 'memory growth' : undefined,
].filter((item) => item !== undefined);
console.log(missed.length === 0 ? '\nTargets met: zero 429s, zero unexplained failures, memory flat.' : `\nTargets MISSED: ${missed.join(', ')}.`);
process.exitCode = missed.length === 0 ? 0 : 1;
