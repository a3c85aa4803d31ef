/**
 * The time source of the simulator, in epoch milliseconds. Inject a {@link ManualClock} in tests so
 * sliding windows, coupon expiry and "future meeting" rules move only when the test says so.
 */
export interface Clock {
  /** The current time in epoch milliseconds. */
  now(): number;
}

/** The real time (`Date.now()`). */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to. */
export interface ManualClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds. */
  advance(ms: number): void;
  /** Sets the clock to `epochMs`. */
  set(epochMs: number): void;
}

/**
 * Creates a {@link ManualClock} starting at `startMs` (epoch milliseconds).
 *
 * @example
 * ```ts
 * const clock = createManualClock(Date.UTC(2026, 10, 22));
 * const sim = createSimulator({ clock });
 * clock.advance(60_000); // one rate-limit window later
 * ```
 */
export function createManualClock(startMs: number): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance(ms: number) {
      current += ms;
    },
    set(epochMs: number) {
      current = epochMs;
    },
  };
}

/** Unix seconds (the API's timestamps) of a clock's current time. */
export function unixSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}
