/**
 * The least time a key's job could take under its budget, given the round trips its requests
 * really had and the calls its app keeps in flight: what a perfect pacer would do with them. The
 * server counts arrivals in a sliding window and the client cannot see arrivals, so a slot is free
 * again a window after the answer of the request that held it (the SDK's permit rule,
 * docs/architecture.md). The perfect pacer sends each request, in the order they were sent, on the
 * slot that frees first, as soon as that slot and one of the app's `concurrency` callers are free.
 * A key whose job ends later than this lost time somewhere other than its round trips, the budget
 * and its own concurrency: waiting for a dispatch, a timer, the CPU other keys held (starving).
 *
 * @example
 * ```ts
 * idealJobMs([100, 100, 100], 2, 1_000); // 1,200: two at once, the third a window after the first answer
 * ```
 */
export function idealJobMs(roundTripsMs: readonly number[], limit: number, windowMs: number, concurrency = Number.POSITIVE_INFINITY): number {
  // When each slot, and each caller, is free next; kept sorted (one entry each).
  const slotsFreeAt: number[] = Array.from({ length: Math.min(limit, roundTripsMs.length) }, () => 0);
  const callersFreeAt: number[] = Array.from({ length: Math.min(concurrency, roundTripsMs.length) }, () => 0);
  let end = 0;
  for (const roundTrip of roundTripsMs) {
    const sentAt = Math.max(slotsFreeAt.shift() as number, callersFreeAt.shift() as number);
    const answeredAt = sentAt + roundTrip;
    end = Math.max(end, answeredAt);
    insertSorted(slotsFreeAt, answeredAt + windowMs);
    insertSorted(callersFreeAt, answeredAt);
  }
  return end;
}

function insertSorted(times: number[], time: number): void {
  let index = times.length;
  while (index > 0 && (times[index - 1] as number) > time) index -= 1;
  times.splice(index, 0, time);
}
