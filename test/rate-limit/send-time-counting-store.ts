import type { AcquireRequest, AcquireResult, PermitStore } from '../../src/rate-limit/permit-store.js';

/**
 * The naive rule, kept only to show that it fails: count each earlier request for `windowMs`
 * from its send time, ignoring when it is answered (what a sliding-log or token-bucket limiter does).
 */
export class SendTimeCountingStore implements PermitStore {
  readonly #now: () => number;
  readonly #sends = new Map<string, number[]>();
  #issued = 0;

  constructor(now: () => number) {
    this.#now = now;
  }

  async tryAcquire(request: AcquireRequest): Promise<AcquireResult> {
    const now = this.#now();
    const recent = (this.#sends.get(request.bucket) ?? []).filter((sentAt) => sentAt + request.windowMs > now);
    this.#sends.set(request.bucket, recent);
    if (recent.length < request.limit) {
      recent.push(now);
      this.#issued += 1;
      return { granted: true, permitId: String(this.#issued) };
    }
    const oldest = recent[recent.length - request.limit] ?? now;
    return { granted: false, retryAfterMs: oldest + request.windowMs - now, paused: false };
  }

  async release(): Promise<void> {
    // The naive rule forgets a request once it is sent.
  }

  async pause(): Promise<void> {
    // Not part of what this store demonstrates.
  }
}
