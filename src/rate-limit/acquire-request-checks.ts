import type { AcquireRequest } from './permit-store.js';
import { PRIORITIES } from './priority.js';

/**
 * Rejects an {@link AcquireRequest} no store can decide on: a limit below 1 would refuse forever,
 * a non-positive window or lease would count nothing, an unknown lane or a share outside (0, 1]
 * has no meaning.
 *
 * @throws RangeError naming the field and the value.
 */
export function assertValidAcquireRequest(request: AcquireRequest): void {
  if (typeof request !== 'object' || request === null) {
    throw new RangeError(`Failed to acquire a rate-limit permit: the request must be an object (bucket, limit, windowMs, leaseMs), got ${described(request)}. Pass an AcquireRequest.`);
  }
  assertPositiveInteger('limit', request.limit, "Pass the server's limit for this operation type (at least 1)");
  assertPositiveInteger('windowMs', request.windowMs, "Pass the server's window in whole milliseconds (60000 by default)");
  assertPositiveInteger('leaseMs', request.leaseMs, 'Pass a lease longer than the longest request, in whole milliseconds');
  const { lane, reserve, share, waiter, demand, burst, ramp, batch } = request;
  if (lane !== undefined && !PRIORITIES.includes(lane)) fail('lane', lane, "Pass 'interactive' or 'background'");
  if (reserve !== undefined && !(Number.isSafeInteger(reserve) && reserve >= 0)) fail('reserve', reserve, 'Pass a whole number of slots, 0 or more');
  if (ramp !== undefined && !(Number.isSafeInteger(ramp) && ramp >= 0)) fail('ramp', ramp, 'Pass a whole number of slots, 0 or more');
  if (demand !== undefined && !(Number.isSafeInteger(demand) && demand >= 1)) fail('demand', demand, 'Pass the number of waiting calls, 1 or more');
  if (burst !== undefined && !(Number.isSafeInteger(burst) && burst >= 1)) fail('burst', burst, 'Pass the number of calls made at once, 1 or more');
  if (share !== undefined && !(typeof share === 'number' && share > 0 && share <= 1)) fail('share', share, 'Pass a fraction above 0 and at most 1');
  if (batch !== undefined && typeof batch !== 'boolean') fail('batch', batch, 'Pass true or false');
  if (waiter !== undefined && !(typeof waiter === 'string' && waiter !== '')) fail('waiter', waiter, 'Pass a non-empty id of the waiting queue');
}

/**
 * Rejects a permit count (`PermitStore.tryAcquireMany`) that is not a whole number of at least 1.
 *
 * @throws RangeError naming the value.
 */
export function assertValidPermitCount(count: number): void {
  if (typeof count === 'number' && Number.isSafeInteger(count) && count >= 1) return;
  throw new RangeError(`Failed to acquire rate-limit permits: count must be a positive integer, got ${described(count)}. Pass how many waiting calls the permits are for (at least 1).`);
}

/** A value for a message: a string quoted, so that "2" does not read as the number 2. */
function described(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function assertPositiveInteger(field: keyof AcquireRequest, value: unknown, remedy: string): void {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return;
  throw new RangeError(`Failed to acquire a rate-limit permit: ${field} must be a positive integer, got ${String(value)}. ${remedy}.`);
}

function fail(field: keyof AcquireRequest, value: unknown, remedy: string): never {
  throw new RangeError(`Failed to acquire a rate-limit permit: ${field} is not valid, got ${String(value)}. ${remedy}.`);
}
