/**
 * The most arrivals any sliding window of `windowMs` saw, counting as the spec's server does: a
 * request older than the window no longer counts (window = (t - windowMs, t]).
 */
export function maxArrivalsInWindow(arrivals: readonly number[], windowMs: number): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let max = 0;
  let first = 0;
  for (let last = 0; last < sorted.length; last += 1) {
    while ((sorted[first] as number) <= (sorted[last] as number) - windowMs) first += 1;
    max = Math.max(max, last - first + 1);
  }
  return max;
}
