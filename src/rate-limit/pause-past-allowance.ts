/**
 * How far past the call's allowance a pause must reach before the call fails rather than waits:
 * the store measures what is left of the pause on its own clock (Redis: its TIME) and rounds it,
 * so a call that accepted a wait of exactly its allowance may read a few ms more.
 */
const PAUSE_SLACK_MS = 50;

/**
 * The key is paused after a 429 for longer than the call may still wait on 429s (its
 * `maxRateLimitWaitMs`, less what it waited already). Raised by the permit queue, nothing sent;
 * the pipeline turns it into a `RateLimitError`, which knows the operation.
 */
export class PausePastAllowanceSignal extends Error {
  constructor(
    /** What is left of the pause, as the store said. */
    readonly retryAfterMs: number,
    /** What the call could still wait. */
    readonly allowanceMs: number,
  ) {
    super(`paused for ${retryAfterMs} ms, past the call's ${allowanceMs} ms`);
  }
}

/** True when a refusal for a pause of `retryAfterMs` is longer than a call allowed `allowanceMs` may wait. */
export function pausePastAllowance(refusal: { paused: boolean; retryAfterMs: number }, allowanceMs: number): boolean {
  return refusal.paused && refusal.retryAfterMs > allowanceMs + PAUSE_SLACK_MS;
}
