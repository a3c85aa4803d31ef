import type { MemoryPermitStore } from '../../../src/rate-limit/memory-permit-store.js';
import type { PermitStore } from '../../../src/rate-limit/permit-store.js';
import type { StoreLeg } from './leg.js';

/** Calls a sweep makes per bucket held: the store looks at two buckets per call for idleness. */
const SWEEP_CALLS_PER_BUCKET = 2;

/** The memory store, as a process with many keys uses it: one store shared by every client. */
export const memoryLeg: StoreLeg = {
  name: 'memory',
  description: 'MemoryPermitStore, one per run, shared by every client of the process',
  goals: { heapPerCounted: 100, heapPerIdleClient: 2_048, throughputVsBare: 0.5, jobOverBound: 1.05 },
  async open(sdk) {
    return {
      store: () => new sdk.MemoryPermitStore(),
      async sweep(store: PermitStore | undefined) {
        const memory = store as MemoryPermitStore;
        // Each call looks at the oldest buckets for idleness; a bucket of its own with room for every call.
        const calls = SWEEP_CALLS_PER_BUCKET * (memory.bucketCount + 1);
        for (let call = 0; call < calls && memory.bucketCount > 1; call += 1) await memory.tryAcquire({ bucket: 'tenants-bench-sweep', limit: 1_000_000, windowMs: 1, leaseMs: 1 });
      },
      close: async () => undefined,
    };
  },
};
