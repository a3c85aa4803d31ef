import type { RateLimitRule } from '../options.js';

/** The verdict on one arrival. */
export type WindowVerdict =
  | {
      allowed: true;
      /** Requests that may still arrive within the window now. */
      remaining: number;
      /** Epoch milliseconds when the oldest counted arrival leaves the window. */
      resetAtMs: number;
    }
  | {
      allowed: false;
      /** Milliseconds until enough counted requests leave the window for one more to pass. */
      retryAfterMs: number;
      /** Epoch milliseconds when that happens. */
      resetAtMs: number;
    };

/**
 * The server's sliding-window counter: per bucket (an API key and an operation type), the arrival
 * times of the past `windowMs`. Every arrival is counted, the rejected ones too (spec: "All
 * requests count ... every retry counts"); a request passes when, with it, at most `limit`
 * arrivals lie in the window. There is no fixed reset: entries leave one by one as time passes.
 */
export class SlidingWindowCounter {
  private readonly arrivals = new Map<string, number[]>();

  /** Counts an arrival at `nowMs` and says whether it passes. */
  arrive(bucket: string, nowMs: number, rule: RateLimitRule): WindowVerdict {
    let times = this.arrivals.get(bucket);
    if (!times) {
      times = [];
      this.arrivals.set(bucket, times);
    }
    // A request older than the window no longer counts.
    const cutoff = nowMs - rule.windowMs;
    let expired = 0;
    while (expired < times.length && (times[expired] ?? 0) <= cutoff) expired += 1;
    if (expired > 0) times.splice(0, expired);
    times.push(nowMs);
    if (times.length <= rule.limit) return { allowed: true, remaining: rule.limit - times.length, resetAtMs: (times[0] ?? nowMs) + rule.windowMs };
    // Room for one more comes when all but `limit - 1` of the counted arrivals have left.
    const freeing = times[times.length - rule.limit] ?? nowMs;
    const resetAtMs = freeing + rule.windowMs;
    return { allowed: false, retryAfterMs: resetAtMs - nowMs, resetAtMs };
  }
}
