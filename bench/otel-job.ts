/**
 * A 100,000-row `grantCouponToMany` traced by `school-admin-sdk/otel`: how many spans it exports
 * (one for the job, never one per row), what the rows metric counts, and what tracing it costs a
 * row, against the same job untraced and with OpenTelemetry in use but the instrumentation off,
 * one after the other in one run. The grants go to an in-process
 * fetch that answers at once (no sockets: the figures are the client's own work), pacing off.
 *
 * Run: npm run bench:otel-job   (ROWS=20000 for a shorter run)
 */
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { AdminClient } from '../src/index.js';
import { startOtel } from '../test/otel/support/otel-harness.js';

const ROWS = Number(process.env['ROWS'] ?? 100_000);
const ANSWER = JSON.stringify({
  data: { createCouponGrant: { errors: null, created: true, grant: { id: 'g-1', status: 'granted', userName: 'M', userEmail: 'm@example.com', grantedByName: null, grantedAt: 1_800_000_000, redeemedAt: null, revokedAt: null } } },
});
const instant: typeof fetch = async () => new Response(ANSWER, { status: 200, headers: { 'content-type': 'application/json' } });

async function job(): Promise<{ ms: number; created: number; heapMiB: number }> {
  const admin = new AdminClient({ apiKey: 'sk_live_bench_otel_job_0123456789', baseUrl: 'https://school.example', fetch: instant, limits: false });
  async function* members(): AsyncGenerator<{ email: string }> {
    for (let index = 0; index < ROWS; index += 1) yield { email: `member${index}@example.com` };
  }
  // Sampled from the job's progress: an instant fetch leaves no turn of the event loop to a timer.
  let peak = 0;
  const onProgress = ({ done }: { done: number }) => {
    if (done % 1_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
  };
  const started = performance.now();
  const summary = await admin.grantCouponToMany('c-1', members(), { concurrency: 64, onProgress });
  return { ms: performance.now() - started, created: summary.counts.created, heapMiB: peak / 2 ** 20 };
}

const untraced = await job();
const otel = startOtel();
// OpenTelemetry in use (its context manager entered once, as an app's HTTP server instrumentation
// does), the SDK's instrumentation off: what the app pays for OpenTelemetry itself.
otel.instrumentation.disable();
context.with(ROOT_CONTEXT.setValue(createContextKey('bench: context in use'), true), () => undefined);
const contextOnly = await job();
otel.instrumentation.enable();
const traced = await job();
const spans = otel.spans.getFinishedSpans();
const rows = (await otel.collect()).get('school_admin.client.job.rows')?.dataPoints.find((point) => point.attributes['school_admin.row.outcome'] === 'created')?.value;
await otel.stop();

const perRow = (ms: number): string => `${((ms * 1000) / ROWS).toFixed(1)} µs`;
console.log(`grantCouponToMany of ${ROWS.toLocaleString('en-US')} rows, concurrency 64, in-process fetch, pacing off (Node ${process.version})`);
console.log(`  untraced: ${(untraced.ms / 1000).toFixed(1)} s (${perRow(untraced.ms)} a row), peak heap ${untraced.heapMiB.toFixed(0)} MiB`);
console.log(`  OpenTelemetry in use, the SDK's instrumentation off: ${(contextOnly.ms / 1000).toFixed(1)} s (${perRow(contextOnly.ms)} a row), peak heap ${contextOnly.heapMiB.toFixed(0)} MiB`);
console.log(`  traced:   ${(traced.ms / 1000).toFixed(1)} s (${perRow(traced.ms)} a row), peak heap ${traced.heapMiB.toFixed(0)} MiB`);
console.log(`  spans exported: ${spans.length} (${[...new Set(spans.map((span) => span.name))].join(', ')}); rows metric, created: ${String(rows)}; created: ${traced.created}`);
