import { MemoryPermitStore } from './memory-permit-store.js';

const sharedByEndpoint = new Map<string, MemoryPermitStore>();

/**
 * The default store: one per process and API endpoint, so every client of the same key and the
 * same server in this process shares one budget (buckets are named by a hash of the key; limits
 * travel with each request, so clients with other options are not affected).
 *
 * Per endpoint, not per process alone: what a store learns from a server (a 429's pause, a budget
 * it revealed or stated) belongs to that server. A staging server or a test's mock server on
 * another port that answers 429 with a 60 s pause must not stall the clients of the production
 * API that use the same key. Production code uses one endpoint, so nothing changes for it.
 */
export function sharedMemoryStore(endpoint: string): MemoryPermitStore {
  let store = sharedByEndpoint.get(endpoint);
  if (store === undefined) {
    // Kept for the life of the process, even when it counts nothing: a live client may hold it,
    // and a second store for the same endpoint would split the budget. An idle store is an empty
    // Map (its buckets are freed when idle), so a suite that starts a mock server per test keeps
    // well under 1 KB per server.
    store = new MemoryPermitStore();
    sharedByEndpoint.set(endpoint, store);
  }
  return store;
}
