/**
 * The least time a key's job could take under its budget with the round trips its requests really
 * had: a perfect pacer sends each request, in order, on the slot that frees first (a window after
 * the answer of the request that held it), the moment it frees. A key whose job takes longer lost
 * time to something else: a dispatch, a timer, the CPU or the store other keys held (starving).
 * The same definition as bench:tenants (issue 28).
 *
 * @example
 * ```ts
 * idealJobMs([100, 100, 100], 2, 1_000); // 1,200: two at once, the third a window after the first answer
 * ```
 */
export function idealJobMs(roundTripsMs: readonly number[], limit: number, windowMs: number): number {
  const freeAt: number[] = Array.from({ length: Math.min(limit, roundTripsMs.length) }, () => 0);
  let end = 0;
  for (const roundTrip of roundTripsMs) {
    const sentAt = freeAt.shift() ?? 0;
    const answeredAt = sentAt + roundTrip;
    end = Math.max(end, answeredAt);
    const frees = answeredAt + windowMs;
    let index = freeAt.length;
    while (index > 0 && (freeAt[index - 1] ?? 0) > frees) index -= 1;
    freeAt.splice(index, 0, frees);
  }
  return end;
}
