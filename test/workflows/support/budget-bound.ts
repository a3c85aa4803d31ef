/** A server's sliding-window budget: a request passes when, with it, at most `limit` arrivals lie in the last `windowMs`. */
export interface WindowBudget {
  limit: number;
  windowMs: number;
}

/**
 * The earliest moment the last of `count` new requests can arrive at a server that counts
 * `earlier` arrivals (epoch ms; an arrival at `a` counts while `now < a + windowMs`, the rule of
 * the simulator's sliding window), when the new ones start at `from` and each goes as soon as the
 * window lets it pass: the bound no pacing can beat once the earlier arrivals are counted.
 *
 * @example
 * ```ts
 * lastArrivalBound([0, 0], 1, 0, { limit: 2, windowMs: 1_000 }); // 1_000: it waits for the two earlier ones to leave
 * ```
 */
export function lastArrivalBound(earlier: readonly number[], count: number, from: number, budget: WindowBudget): number {
  const arrivals = [...earlier].sort((a, b) => a - b);
  let at = from;
  for (let sent = 0; sent < count; sent += 1) {
    for (;;) {
      const inWindow = arrivals.filter((arrival) => arrival > at - budget.windowMs && arrival <= at);
      if (inWindow.length <= budget.limit - 1) break;
      // Room for one more when all but `limit - 1` of them have left.
      at = (inWindow[inWindow.length - budget.limit] as number) + budget.windowMs;
    }
    arrivals.push(at);
    arrivals.sort((a, b) => a - b);
  }
  return at;
}
