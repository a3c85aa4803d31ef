import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, DEMO_API_KEY_FOR_TESTS } from './support/clients.js';
import { childrenOf, points, spansNamed, startOtel, type OtelHarness } from './support/otel-harness.js';
import { startRecordingServer, type RecordingServer } from './support/recording-server.js';
import { DEMO_IDS, demoMemberEmail } from '../../src/testing/index.js';

let otel: OtelHarness;
let server: RecordingServer;

beforeAll(async () => {
  // The server allows 20 mutations per second; the client assumes the documented 200 per minute
  // and bursts: its first grants meet 429s, as a job meets them when another process spends the key.
  server = await startRecordingServer({ limits: { mutations: { limit: 20, windowMs: 1_000 }, queries: { limit: 600, windowMs: 60_000 } } });
  otel = startOtel();
});

afterEach(() => otel.reset());

afterAll(async () => {
  await otel?.stop();
  await server?.close();
});

describe('grantCouponToMany: one span for the job with its counts, never one per row', () => {
  it('a grant job of 60 rows that met 429s: the job span, a span per 429 pause (with the budget in force), and nothing per row', { timeout: 60_000 }, async () => {
    const admin = new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: server.url });
    const members = [...Array.from({ length: 58 }, (_, index) => ({ email: demoMemberEmail(index + 100) })), { email: 'not-an-email' }, { email: demoMemberEmail(100) }];
    const summary = await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, members, { concurrency: 30 });
    expect(summary.counts).toMatchObject({ created: 58, invalid: 1 });
    const spans = otel.spans.getFinishedSpans();
    const [job] = spansNamed(spans, 'grantCouponToMany');
    expect(job?.kind).toBe(SpanKind.INTERNAL);
    expect(spans.filter((span) => span !== job && !childrenOf(spans, job!).includes(span))).toEqual([]);
    const pauses = spansNamed(childrenOf(spans, job!), 'rate limit pause');
    expect(pauses.length).toBeGreaterThanOrEqual(1);
    expect(childrenOf(spans, job!).filter((span) => span.name !== 'rate limit pause')).toEqual([]);
    expect(pauses[0]?.attributes).toMatchObject({ 'school_admin.wait.reason': 'paused', 'school_admin.budget.source': 'server' });
    expect(Number(pauses[0]?.attributes['school_admin.rate_limit.count'])).toBeGreaterThanOrEqual(1);
    expect(job?.attributes).toMatchObject({
      'school_admin.method': 'grantCouponToMany',
      'school_admin.job.row_count': 60,
      'school_admin.job.outcome.created': summary.counts.created,
      'school_admin.job.outcome.already_granted': summary.counts.already_granted,
      'school_admin.job.outcome.invalid': 1,
      'school_admin.job.outcome.skipped': summary.counts.skipped,
      'school_admin.job.outcome.failed': 0,
      'school_admin.job.interrupted': false,
      'school_admin.ran': 'yes',
    });
    const rateLimited = Number(job?.attributes['school_admin.job.rate_limited_count']);
    expect(rateLimited).toBeGreaterThan(0);
    expect(job?.attributes['school_admin.job.request_count']).toBe(58 + 1 + rateLimited);
    const metrics = await otel.collect();
    const rows = points(metrics.get('school_admin.client.job.rows')).filter((point) => point.attributes['school_admin.method'] === 'grantCouponToMany');
    expect(Object.fromEntries(rows.map((point) => [point.attributes['school_admin.row.outcome'], point.value]))).toEqual({ created: 58, already_granted: 1, invalid: 1 });
    const four29s = points(metrics.get('school_admin.client.rate_limited_responses')).filter((point) => point.attributes['school_admin.method'] === 'grantCoupon');
    expect(four29s.reduce((sum, point) => sum + Number(point.value), 0)).toBe(rateLimited);
  });

  it('a 20,000-row job (an instant in-process server): still one span, and the rows metric counts every row', { timeout: 120_000 }, async () => {
    const answer = JSON.stringify({ data: { createCouponGrant: { errors: null, created: true, grant: { id: 'g-1', status: 'granted', userName: 'M', userEmail: 'm@example.com', grantedByName: null, grantedAt: 1_800_000_000, redeemedAt: null, revokedAt: null } } } });
    const instant: typeof fetch = async () => new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } });
    const admin = new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: 'https://school.example', fetch: instant, limits: false });
    // The rows metric is cumulative over the file: this job's rows are what it adds.
    const createdSoFar = async () => Number(points((await otel.collect()).get('school_admin.client.job.rows')).find((point) => point.attributes['school_admin.row.outcome'] === 'created' && point.attributes['school_admin.method'] === 'grantCouponToMany')?.value ?? 0);
    const before = await createdSoFar();
    async function* members() {
      for (let index = 0; index < 20_000; index += 1) yield { email: `member${index}@example.com` };
    }
    const summary = await admin.grantCouponToMany(DEMO_IDS.restrictedCouponId, members(), { concurrency: 64 });
    expect(summary.counts.created).toBe(20_000);
    const spans = otel.spans.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual(['grantCouponToMany']);
    expect(spans[0]?.attributes).toMatchObject({ 'school_admin.job.outcome.created': 20_000, 'school_admin.job.request_count': 20_000 });
    expect((await createdSoFar()) - before).toBe(20_000);
  });
});

describe('a bulk call sent in chunks: one span for the job, a call span per chunk under it', () => {
  it('250 rows in chunks of 100: the job span with its counts, three chunk calls under it, each with its HTTP attempt', async () => {
    const admin = new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: server.url, bulkChunkSize: 100, limits: { mutations: { limit: 20, windowMs: 1_000 } } });
    const start = Math.floor(Date.now() / 1000) + 30 * 86_400;
    const rows = Array.from({ length: 250 }, (_, index) => ({ startedAt: start + index * 3_600, endedAt: start + index * 3_600 + 1_800 }));
    const result = await admin.bulkCreateMeetings(DEMO_IDS.defaultModeServiceId, rows);
    expect(result.results).toHaveLength(250);
    const spans = otel.spans.getFinishedSpans();
    const [job] = spansNamed(spans, 'bulkCreateMeetings');
    const chunks = childrenOf(spans, job!).filter((span) => span.name === 'mutation BulkCreateConsultingMeetings');
    expect(chunks).toHaveLength(3);
    for (const chunk of chunks) expect(childrenOf(spans, chunk).filter((span) => span.kind === SpanKind.CLIENT)).toHaveLength(1);
    const failed = result.results.filter((row) => (row.errors?.length ?? 0) > 0).length;
    expect(job?.attributes).toMatchObject({
      'school_admin.method': 'bulkCreateMeetings',
      'school_admin.job.row_count': 250,
      'school_admin.job.chunk_count': 3,
      'school_admin.job.outcome.succeeded': 250 - failed,
      'school_admin.ran': 'yes',
    });
    expect(job?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a chunk that fails: the job span ends in error with the BulkChunkError\'s ran, its failed chunk\'s span too', { timeout: 60_000 }, async () => {
    const admin = new AdminClient({ apiKey: DEMO_API_KEY_FOR_TESTS, baseUrl: server.url, bulkChunkSize: 2 });
    const start = Math.floor(Date.now() / 1000) + 60 * 86_400;
    const rows = [0, 1, 2].map((index) => ({ startedAt: start + index * 3_600, endedAt: start + index * 3_600 + 1_800 }));
    const error = await admin.bulkCreateMeetings('00000000-0000-4000-8000-00000000dead', rows).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'BulkChunkError', ran: 'no' });
    const spans = otel.spans.getFinishedSpans();
    const [job] = spansNamed(spans, 'bulkCreateMeetings');
    expect(job?.status.code).toBe(SpanStatusCode.ERROR);
    expect(job?.attributes).toMatchObject({ 'error.type': 'BulkChunkError', 'school_admin.ran': 'no' });
    const [chunk] = childrenOf(spans, job!).filter((span) => span.kind === SpanKind.INTERNAL && span.name.startsWith('mutation'));
    expect(chunk?.attributes).toMatchObject({ 'error.type': 'CONSULTING-001', 'school_admin.ran': 'no' });
  });
});
