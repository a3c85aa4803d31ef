/**
 * The least time a key's job could take under its budget, given the round trips its requests
 * really had: what a perfect pacer would do with them. The server counts arrivals in a sliding
 * window and the client cannot see arrivals, so a slot is free again a window after the answer of
 * the request that held it (the SDK's permit rule, docs/architecture.md). The perfect pacer sends
 * each request, in the order they were sent, on the slot that frees first, the moment it frees.
 * A key whose job ends later than this lost time somewhere other than its round trips and the
 * budget: waiting for a dispatch, a timer, the CPU other keys held (starving).
 *
 * @example
 * ```ts
 * idealJobMs([100, 100, 100], 2, 1_000); // 1,200: two at once, the third a window after the first answer
 * ```
 */
export function idealJobMs(roundTripsMs: readonly number[], limit: number, windowMs: number): number {
  // When each of the `limit` slots is free next, kept sorted (small: one entry per slot).
  const freeAt: number[] = Array.from({ length: Math.min(limit, roundTripsMs.length) }, () => 0);
  let end = 0;
  for (const roundTrip of roundTripsMs) {
    const sentAt = freeAt.shift() as number;
    const answeredAt = sentAt + roundTrip;
    end = Math.max(end, answeredAt);
    const frees = answeredAt + windowMs;
    let index = freeAt.length;
    while (index > 0 && (freeAt[index - 1] as number) > frees) index -= 1;
    freeAt.splice(index, 0, frees);
  }
  return end;
}
