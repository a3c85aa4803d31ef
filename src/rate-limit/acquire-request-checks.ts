import type { AcquireRequest } from './permit-store.js';

/**
 * Rejects an {@link AcquireRequest} no store can decide on: a limit below 1 would refuse forever
 * and a non-positive window or lease would count nothing.
 *
 * @throws RangeError naming the field and the value.
 */
export function assertValidAcquireRequest(request: AcquireRequest): void {
  assertPositiveInteger('limit', request.limit, "Pass the server's limit for this operation type (at least 1)");
  assertPositiveInteger('windowMs', request.windowMs, "Pass the server's window in whole milliseconds (60000 by default)");
  assertPositiveInteger('leaseMs', request.leaseMs, 'Pass a lease longer than the longest request, in whole milliseconds');
}

function assertPositiveInteger(field: keyof AcquireRequest, value: unknown, remedy: string): void {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return;
  throw new RangeError(`Failed to acquire a rate-limit permit: ${field} must be a positive integer, got ${String(value)}. ${remedy}.`);
}
