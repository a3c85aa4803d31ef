import { GraphQLClient } from './naive-client.js';
import pRetry from 'p-retry';
import { AdminClient, MemoryPermitStore, OPERATIONS, type PermitStore } from '../../src/index.js';
import { API_KEY, COUPON_ID, LIMIT, memberEmail, WINDOW_MS } from './setup.js';

/** What one run of `count` grants produced. */
export interface RunResult {
  durationMs: number;
  succeeded: number;
  failed: number;
  /** 429 answers this runner received. */
  rateLimited: number;
  /** Epoch ms of each 429 answer (the SDK runner only): where in the run they fall. */
  rateLimitedAt?: number[];
  /** Epoch ms of the first request and of the last answer (to combine processes). */
  startedAt: number;
  finishedAt: number;
}

/** Grants with AdminClient: paced by the permit rule, 429s handled by pausing. */
export async function runSdk(url: string, count: number, offset = 0, store: PermitStore = new MemoryPermitStore()): Promise<RunResult> {
  const admin = new AdminClient({
    apiKey: API_KEY,
    baseUrl: url,
    maxRetries: 10,
    limits: { mutations: { limit: LIMIT, windowMs: WINDOW_MS }, store },
  });
  const rateLimitedAt: number[] = [];
  admin.on('rateLimited', () => {
    rateLimitedAt.push(Date.now());
  });
  const result = await timed(count, (index) => admin.grantCoupon(COUPON_ID, { email: memberEmail(offset + index) }));
  return { ...result, rateLimited: rateLimitedAt.length, rateLimitedAt };
}

/** The naive baseline: a plain GraphQL client (graphql-request's behaviour) with p-retry's defaults around each call, all fired at once. */
export async function runNaive(url: string, count: number, offset = 0): Promise<RunResult> {
  const client = new GraphQLClient(`${url}/admin/graphql`, { headers: { 'X-Service-API-Key': API_KEY } });
  const document = OPERATIONS.createCouponGrant.document;
  let rateLimited = 0;
  const result = await timed(count, (index) =>
    pRetry(() => client.request(document, { couponId: COUPON_ID, email: memberEmail(offset + index) }), {
      retries: 5,
      onFailedAttempt: ({ error }) => {
        if ((error as { response?: { status?: number } }).response?.status === 429) rateLimited += 1;
      },
    }),
  );
  return { ...result, rateLimited };
}

async function timed(count: number, call: (index: number) => Promise<unknown>): Promise<Omit<RunResult, 'rateLimited'>> {
  const startedAt = Date.now();
  const started = performance.now();
  const outcomes = await Promise.allSettled(Array.from({ length: count }, (_, index) => call(index)));
  const succeeded = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
  return { durationMs: performance.now() - started, succeeded, failed: count - succeeded, startedAt, finishedAt: Date.now() };
}
