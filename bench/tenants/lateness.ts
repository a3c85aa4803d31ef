import type { AdminClient } from '../../src/client/facade/admin-client.js';
import type { JobFigures } from './cell.js';
import { idealJobMs } from './ideal-pacer.js';

/**
 * Where a key's job lost time against its bound (bench/tenants/ideal-pacer.ts): how long its first
 * window took to leave (the `limit`-th request's send, from the start), and how late, on average,
 * each later request left after the slot it took had freed (a window after the answer that freed
 * it, in answer order). `sends` are the key's send times in the order sent; `roundTrips` each
 * request's round trip, in the same order.
 *
 * @example
 * ```ts
 * // 2 per 1,000 ms; answers at 10 and 12 ms; the third request left at 1,030 ms: 20 ms after its slot freed.
 * latenessOf([0, 2, 1_030], [10, 10, 10], 0, 2, 1_000); // { firstWindowMs: 2, reuseLagMs: 20 }
 * ```
 */
export function latenessOf(sends: readonly number[], roundTrips: readonly number[], started: number, limit: number, windowMs: number): { firstWindowMs: number; reuseLagMs: number } {
  const answers = sends.map((sent, index) => sent + (roundTrips[index] ?? 0)).sort((a, b) => a - b);
  const lags = sends.slice(limit).map((sent, index) => sent - ((answers[index] ?? 0) + windowMs));
  return { firstWindowMs: (sends[limit - 1] ?? started) - started, reuseLagMs: lags.length === 0 ? 0 : lags.reduce((sum, lag) => sum + lag, 0) / lags.length };
}

/** The median of `values` (the upper one of an even count); NaN for none. */
export function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
}

/** One key's requests as its client saw them, in the order sent. */
export interface KeyRequests {
  /** When each request left (performance.now()). */
  sends: number[];
  /** Each request's round trip (sending to the end of the answer's body), NaN until answered. */
  roundTrips: number[];
}

/** Listens to `admin`'s request and response events and records its requests as they go. */
export function recordRequests(admin: AdminClient): KeyRequests {
  const recorded: KeyRequests = { sends: [], roundTrips: [] };
  const order = new Map<string, number>();
  admin.on('request', (event) => {
    recorded.sends.push(performance.now());
    order.set(`${event.callId}/${event.attempt}`, recorded.roundTrips.push(Number.NaN) - 1);
  });
  admin.on('response', (event) => void (recorded.roundTrips[order.get(`${event.callId}/${event.attempt}`) ?? -1] = event.durationMs));
  return recorded;
}

/** One key's job in a paced cell: its time against its bound, its mean round trip, where it lost time. */
interface KeyJob {
  ratio: number;
  jobMs: number;
  boundMs: number;
  rttMs: number;
  firstWindowMs: number;
  reuseLagMs: number;
}

/**
 * Every key's job against its own bound (bench/tenants/ideal-pacer.ts, from the key's own start),
 * summed up over the keys: the worst, median and 99th-percentile key, and where they lost time.
 * `concurrency`: the calls each key's app keeps in flight (all at once: unbounded).
 */
export function jobFigures(
  keys: { requests: readonly KeyRequests[]; starts: readonly number[]; ends: readonly number[] },
  budget: { limit: number; windowMs: number; concurrency?: number },
  wallMs: number,
): JobFigures {
  const perKey: KeyJob[] = keys.ends.map((end, index) => {
    const { sends, roundTrips } = keys.requests[index] ?? { sends: [], roundTrips: [] };
    const started = keys.starts[index] as number;
    const boundMs = idealJobMs(roundTrips, budget.limit, budget.windowMs, budget.concurrency);
    const rttMs = roundTrips.reduce((sum, trip) => sum + trip, 0) / roundTrips.length;
    return { ratio: (end - started) / boundMs, jobMs: end - started, boundMs, rttMs, ...latenessOf(sends, roundTrips, started, budget.limit, budget.windowMs) };
  });
  const sorted = [...perKey].sort((a, b) => a.ratio - b.ratio);
  const at = (quantile: number): KeyJob => sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))] as KeyJob;
  const worst = sorted.at(-1) as KeyJob;
  return {
    worst: worst.ratio,
    median: at(0.5).ratio,
    p99: at(0.99).ratio,
    worstJobMs: worst.jobMs,
    worstBoundMs: worst.boundMs,
    worstRttMs: worst.rttMs,
    meanRttMs: perKey.reduce((sum, key) => sum + key.rttMs, 0) / perKey.length,
    wallMs,
    firstWindowMs: median(perKey.map((key) => key.firstWindowMs)),
    reuseLagMs: median(perKey.map((key) => key.reuseLagMs)),
    worstFirstWindowMs: worst.firstWindowMs,
    worstReuseLagMs: worst.reuseLagMs,
  };
}
