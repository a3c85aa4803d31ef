import type { AcquireRequest, PermitStore } from '../../src/rate-limit/permit-store.js';
import type { VirtualClock } from './virtual-clock.js';

/** The window and lease of the contract files' requests. */
export const CONTRACT_WINDOW_MS = 1_000;
export const CONTRACT_LEASE_MS = 5_000;

/**
 * What the store contract files (lane-contract.ts, batch-contract.ts) ask a store with, on one
 * bucket and a virtual clock: requests of a limit in either lane, and grants counted or required.
 */
export function contractRequests(subject: () => { store: PermitStore; clock: VirtualClock }, bucket: string) {
  const request = (limit: number, overrides: Partial<AcquireRequest> = {}): AcquireRequest => ({ bucket, limit, windowMs: CONTRACT_WINDOW_MS, leaseMs: CONTRACT_LEASE_MS, ...overrides });
  const interactive = (limit: number, overrides: Partial<AcquireRequest> = {}): AcquireRequest => request(limit, { lane: 'interactive', ...overrides });

  /** A permit the store must grant. */
  async function grant(acquire: AcquireRequest): Promise<string> {
    const result = await subject().store.tryAcquire(acquire);
    if (!result.granted) throw new Error(`expected a permit, got ${JSON.stringify(result)}`);
    return result.permitId;
  }
  /** How many permits in a row the store grants (up to `most`). */
  async function grantCount(acquire: AcquireRequest, most = 50): Promise<number> {
    for (let granted = 0; granted < most; granted += 1) {
      if (!(await subject().store.tryAcquire(acquire)).granted) return granted;
    }
    return most;
  }
  const advance = (ms: number): void => subject().clock.advance(ms);
  return { request, interactive, grant, grantCount, advance };
}
