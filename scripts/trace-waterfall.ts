/**
 * Renders docs/images/grant-job-429.png, the trace docs/observability.md shows, from spans
 * exported by the OpenTelemetry SDK: a grant job against a server whose budget (20 mutations per
 * 2 s) the client does not know meets 429s, and an interactive grant made while the job is paused
 * waits its turn. Writes the exported spans (grant-job-429.json), a waterfall of them
 * (grant-job-429.svg), then screenshots it in a page with Chromium (Debian's `chromium`; without
 * it the PNG is left as it was and the script says so).
 *
 * Run: npx tsx scripts/trace-waterfall.ts
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { AdminClient } from '../src/index.js';
import { createSimulator, DEMO_API_KEY, DEMO_IDS, demoMemberEmail, seedDemoSchool, startMockServer } from '../src/testing/index.js';
import { startOtel } from '../test/otel/support/otel-harness.js';

const OUT = fileURLToPath(new URL('../docs/images/', import.meta.url));
const NAME = 'grant-job-429';

/** One exported span, as the JSON file keeps it (times in ms from the trace's start). */
interface SpanRecord {
  name: string;
  spanId: string;
  parentSpanId: string | undefined;
  kind: string;
  startMs: number;
  durationMs: number;
  status: string;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; atMs: number; attributes: Record<string, unknown> }>;
}

async function record(): Promise<SpanRecord[]> {
  const otel = startOtel();
  const simulator = createSimulator({ limits: { mutations: { limit: 20, windowMs: 2_000 }, queries: { limit: 600, windowMs: 60_000 } } });
  seedDemoSchool(simulator);
  const server = await startMockServer({ simulator });
  try {
    const admin = new AdminClient({ apiKey: DEMO_API_KEY, baseUrl: server.url });
    const root = otel.tracerProvider.getTracer('nightly-jobs').startSpan('nightly coupon grants');
    await context.with(trace.setSpan(context.active(), root), async () => {
      const members = Array.from({ length: 48 }, (_, index) => ({ email: demoMemberEmail(index + 101) }));
      const paused = new Promise<void>((resolve) => {
        const stop = admin.on('rateLimited', () => {
          stop();
          resolve();
        });
      });
      const job = admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, members, { concurrency: 32 });
      // An admin grants one coupon by hand while the job is paused: it waits out the pause too,
      // then goes before the job's queued grants (interactive lane).
      await paused;
      await new Promise((resolve) => setTimeout(resolve, 300));
      await admin.grantCoupon(DEMO_IDS.restrictedCouponId, { email: demoMemberEmail(98) });
      await job;
    });
    root.end();
  } finally {
    await server.close();
  }
  const spans = otel.spans.getFinishedSpans();
  await otel.stop();
  const origin = Math.min(...spans.map((span) => hrTimeToMilliseconds(span.startTime)));
  return spans.map((span) => toRecord(span, origin));
}

function toRecord(span: ReadableSpan, origin: number): SpanRecord {
  const parent = (span as ReadableSpan & { parentSpanContext?: { spanId: string } }).parentSpanContext?.spanId;
  return {
    name: span.name,
    spanId: span.spanContext().spanId,
    parentSpanId: parent,
    kind: SpanKind[span.kind],
    startMs: hrTimeToMilliseconds(span.startTime) - origin,
    durationMs: hrTimeToMilliseconds(span.duration),
    status: SpanStatusCode[span.status.code],
    attributes: { ...span.attributes },
    events: span.events.map((event) => ({ name: event.name, atMs: hrTimeToMilliseconds(event.time) - origin, attributes: { ...event.attributes } })),
  };
}

/** Depth-first, children by start time: the rows of the waterfall. */
function rows(spans: SpanRecord[]): Array<{ span: SpanRecord; depth: number }> {
  const ids = new Set(spans.map((span) => span.spanId));
  const out: Array<{ span: SpanRecord; depth: number }> = [];
  const visit = (span: SpanRecord, depth: number): void => {
    out.push({ span, depth });
    for (const child of spans.filter((candidate) => candidate.parentSpanId === span.spanId).sort((a, b) => a.startMs - b.startMs)) visit(child, depth + 1);
  };
  for (const root of spans.filter((span) => span.parentSpanId === undefined || !ids.has(span.parentSpanId))) visit(root, 0);
  return out;
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** What a row says besides the span's name. */
function detail(span: SpanRecord): string {
  const a = span.attributes;
  if (span.name === 'grantCouponToMany') return `${a['school_admin.job.row_count']} rows: ${a['school_admin.job.outcome.created']} created, ${a['school_admin.job.rate_limited_count']} x 429, ${a['school_admin.job.request_count']} requests`;
  if (span.name === 'rate limit pause') return `${a['school_admin.rate_limit.count']} x 429, server asked ${a['school_admin.rate_limit.pause_ms']} ms; then ${a['school_admin.budget.limit']} per ${a['school_admin.budget.window_ms']} ms (${a['school_admin.budget.source']})`;
  if (span.name === 'permit wait') return `${a['school_admin.wait.reason']}, ${a['school_admin.wait.duration_ms']} ms, budget ${a['school_admin.budget.limit']} per ${a['school_admin.budget.window_ms']} ms`;
  if (span.kind === 'CLIENT') return `HTTP ${a['http.response.status_code']}${a['http.request.resend_count'] === undefined ? '' : `, resend ${a['http.request.resend_count']}`}`;
  if (a['school_admin.method'] !== undefined) return `${a['school_admin.method']} (${a['school_admin.lane']}), ${a['school_admin.attempts']} attempt(s), ran ${a['school_admin.ran']}`;
  return '';
}

function colour(span: SpanRecord): string {
  if (span.name === 'rate limit pause' || span.name === 'permit wait') return '#e8a33d';
  if (span.kind === 'CLIENT') return '#4c9a5a';
  if (span.name === 'grantCouponToMany') return '#7a5cb8';
  if (span.attributes['school_admin.method'] !== undefined) return '#3a78c2';
  return '#8a8f98';
}

function svg(spans: SpanRecord[]): string {
  const list = rows(spans);
  const end = Math.max(...spans.map((span) => span.startMs + span.durationMs));
  const labelWidth = 470;
  const chartWidth = 760;
  const rowHeight = 34;
  const top = 56;
  const height = top + list.length * rowHeight + 64;
  const width = labelWidth + chartWidth + 30;
  const x = (ms: number): number => labelWidth + (ms / end) * chartWidth;
  const ticks = Array.from({ length: Math.floor(end / 1000) + 1 }, (_, second) => second * 1000);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="12" y="24" font-size="15" font-weight="bold">A grant job that met 429s: spans exported by the OpenTelemetry SDK (school-admin-sdk/otel)</text>`,
    ...ticks.map((ms) => `<line x1="${x(ms)}" y1="${top - 12}" x2="${x(ms)}" y2="${height - 52}" stroke="#e3e5e8"/><text x="${x(ms)}" y="${top - 16}" text-anchor="middle" fill="#555">${ms / 1000} s</text>`),
  ];
  list.forEach(({ span, depth }, index) => {
    const y = top + index * rowHeight;
    if (index % 2 === 0) parts.push(`<rect x="0" y="${y}" width="${width}" height="${rowHeight}" fill="#f7f8fa"/>`);
    parts.push(`<text x="${12 + depth * 16}" y="${y + 14}" font-weight="bold">${escape(span.name)}</text>`);
    parts.push(`<text x="${12 + depth * 16}" y="${y + 28}" fill="#555" font-size="11">${escape(detail(span))}</text>`);
    const barWidth = Math.max(2, x(span.startMs + span.durationMs) - x(span.startMs));
    const stroke = span.status === 'ERROR' ? ' stroke="#c0392b" stroke-width="2"' : '';
    parts.push(`<rect x="${x(span.startMs)}" y="${y + 8}" width="${barWidth}" height="${rowHeight - 16}" rx="3" fill="${colour(span)}"${stroke}/>`);
    const label = `${span.durationMs >= 1000 ? `${(span.durationMs / 1000).toFixed(2)} s` : `${span.durationMs.toFixed(0)} ms`}`;
    const after = x(span.startMs) + barWidth + 4;
    parts.push(after + 60 < width ? `<text x="${after}" y="${y + 21}" fill="#333" font-size="11">${label}</text>` : `<text x="${x(span.startMs) - 4}" y="${y + 21}" fill="#333" font-size="11" text-anchor="end">${label}</text>`);
    for (const event of span.events) parts.push(`<path d="M ${x(event.atMs)} ${y + 4} l 5 6 l -5 6 l -5 -6 z" fill="#c0392b"><title>${escape(event.name)}</title></path>`);
  });
  const legendY = height - 30;
  const legend: Array<[string, string]> = [
    ['#3a78c2', 'call (INTERNAL)'],
    ['#4c9a5a', 'HTTP attempt (CLIENT)'],
    ['#7a5cb8', 'job (INTERNAL)'],
    ['#e8a33d', 'wait: permit or 429 pause'],
    ['#8a8f98', "the app's own span"],
  ];
  legend.forEach(([fill, text], index) => parts.push(`<rect x="${12 + index * 230}" y="${legendY - 10}" width="14" height="12" rx="2" fill="${fill}"/><text x="${32 + index * 230}" y="${legendY}">${escape(text)}</text>`));
  parts.push('</svg>');
  return parts.join('\n');
}

const spans = await record();
mkdirSync(OUT, { recursive: true });
writeFileSync(join(OUT, `${NAME}.json`), `${JSON.stringify(spans, null, 2)}\n`);
const picture = svg(spans);
writeFileSync(join(OUT, `${NAME}.svg`), `${picture}\n`);
const page = join(mkdtempSync(join(tmpdir(), 'trace-waterfall-')), `${NAME}.html`);
writeFileSync(page, `<!doctype html><html><body style="margin:0">${picture}</body></html>\n`);
const size = /width="(\d+)" height="(\d+)"/.exec(picture);
const shot = spawnSync('chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', `--window-size=${size?.[1]},${size?.[2]}`, `--screenshot=${join(OUT, `${NAME}.png`)}`, `file://${page}`], { encoding: 'utf8' });
console.log(`${spans.length} spans -> docs/images/${NAME}.json and .svg`);
console.log(shot.status === 0 ? `PNG -> docs/images/${NAME}.png` : `PNG not rendered (chromium: ${shot.error?.message ?? shot.stderr.trim().split('\n').at(-1)})`);
