import type { SdkModule } from '../support/sdk-versions.js';

const GRANTED = JSON.stringify({
  data: {
    createCouponGrant: {
      grant: { id: 'grant-1', status: 'granted', userName: null, userEmail: null, grantedByName: null, grantedAt: 1, redeemedAt: null, revokedAt: null },
      created: true,
      errors: null,
    },
  },
});

/** A fetch that answers every request at once with a granted coupon (no network: only the SDK's own work is measured). */
export const grantedFetch: typeof fetch = async () => new Response(GRANTED, { status: 200, headers: { 'content-type': 'application/json' } });

/** A client of `sdk` on its own memory store, with a budget of `limit` per `windowMs`, answered by {@link grantedFetch}. */
export function stubClient(sdk: SdkModule, limit: number, windowMs: number, apiKey = 'sk_live_queue_bench_key'): InstanceType<SdkModule['AdminClient']> {
  return new sdk.AdminClient({ apiKey, baseUrl: 'http://127.0.0.1:9', fetch: grantedFetch, limits: { mutations: { limit, windowMs }, store: new sdk.MemoryPermitStore() } });
}

/** Forces a full collection (node --expose-gc) and reads the heap in use. */
export function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('Run with node --expose-gc (npm run bench:queue does).');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** CPU time (user + system) in microseconds since `since`. */
export function cpuSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
