import { MemoryPermitStore } from './memory-permit-store.js';

let shared: MemoryPermitStore | undefined;

/**
 * The default store: one per process, so every client of the same key in this process shares one
 * budget (buckets are named by a hash of the key; limits travel with each request, so clients
 * with other options are not affected).
 */
export function sharedMemoryStore(): MemoryPermitStore {
  shared ??= new MemoryPermitStore();
  return shared;
}
