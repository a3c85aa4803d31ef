/**
 * The lane a call waits in for its rate-limit permit. An `'interactive'` call (someone is waiting
 * for it) goes before every queued `'background'` call (bulk work) of the same key: in one client,
 * across clients of the process and, through a shared store, across processes.
 *
 * Defaults: single method calls and `request()` are `'interactive'`; `grantCouponToMany`,
 * `bulkCreateMeetings`, `bulkCancelMeetings` (and so the CLI's jobs) are `'background'`.
 */
export type Priority = 'interactive' | 'background';

/** Every {@link Priority}, for checking input. */
export const PRIORITIES: readonly Priority[] = Object.freeze(['interactive', 'background']);

/** Why a call is still waiting for its permit (see the `waiting` event). */
export type WaitReason =
  /** The key's budget is spent for now (by this client, another client or another process). */
  | 'budget'
  /** Every client of the key is paused after a 429 until the time the server named. */
  | 'paused'
  /** A limit learnt from the server (`X-RateLimit-Limit`) is lower than the one configured. */
  | 'learnt_limit'
  /**
   * The server could not be reached (connection refused, host name not resolved): the call waits
   * to try again (its retry backoff; nothing was counted against the budget).
   */
  | 'unreachable';
